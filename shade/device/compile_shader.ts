import { CompiledShader } from "./CompiledShader.js";

export interface CompileShaderOptions {
    /** Names the shader in the GPU object's label and in a compile error. */
    readonly label: string;
    readonly code: string;
}

/**
 * Creates a WGSL module and starts reading its compilation result. The module's own validation error (broken
 * WGSL) is captured here rather than left uncaptured, since `CompiledShader.error` reports it better: with the
 * label, every line and the line's text.
 */
export function compile_shader(device: GPUDevice, options: CompileShaderOptions): CompiledShader {
    if (typeof options.label !== "string" || options.label === "") throw new TypeError("compile_shader: a label is required (it names the shader in errors)");
    device.pushErrorScope("validation");
    const module = device.createShaderModule({ label: options.label, code: options.code });
    void device.popErrorScope().catch(() => {}); // its detail comes back through getCompilationInfo
    return new CompiledShader(options.label, module, options.code);
}
