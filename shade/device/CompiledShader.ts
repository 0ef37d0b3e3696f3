import { ShaderCompileError, type ShaderCompileMessage } from "./ShaderCompileError.js";

/** Where a shader module is: its compilation result not back yet, compiled, or failed (see `error`). */
export type ShaderStatus = "compiling" | "compiled" | "failed";

/**
 * A WGSL module and what its compilation said (made by `compile_shader`). Create pipelines from `module` only
 * once `expect_compiled()` returned true: a pipeline of a broken module is itself invalid and every draw with it
 * a GPU validation error, reported without the WGSL line; an error thrown by `expect_compiled` in an extension's
 * `record` is reported once as that extension's failure (its cause naming the shader and line) and only its
 * work is dropped.
 */
export class CompiledShader {
    readonly label: string;
    readonly module: GPUShaderModule;
    readonly code: string;
    /** Settles when the compilation result is in (never rejects; a lost device leaves it "compiling"). */
    readonly done: Promise<void>;
    #status: ShaderStatus = "compiling";
    #error: ShaderCompileError | null = null;

    constructor(label: string, module: GPUShaderModule, code: string) {
        this.label = label;
        this.module = module;
        this.code = code;
        this.done = module.getCompilationInfo().then(
            (info) => {
                const lines = code.split("\n");
                const messages: ShaderCompileMessage[] = [];
                for (const m of info.messages) {
                    if (m.type !== "error") continue;
                    messages.push({ line: m.lineNum, column: m.linePos, message: m.message, source: (lines[m.lineNum - 1] ?? "").trim() });
                }
                if (messages.length > 0) {
                    this.#error = new ShaderCompileError(label, messages);
                    this.#status = "failed";
                } else {
                    this.#status = "compiled";
                }
            },
            () => {}, // a lost device: nothing will be drawn with it anyway
        );
    }

    get status(): ShaderStatus {
        return this.#status;
    }

    /** The compile errors, once known; null while compiling or when it compiled. */
    get error(): ShaderCompileError | null {
        return this.#error;
    }

    /** True once compiled, false while compiling; throws the `ShaderCompileError` when it failed. */
    expect_compiled(): boolean {
        if (this.#error !== null) throw this.#error;
        return this.#status === "compiled";
    }
}
