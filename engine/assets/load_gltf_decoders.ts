/** @internal The decoder modules glTF-Transform takes for compressed files (`io.registerDependencies`). */
export type GLTFDecoders = Record<string, unknown>;

// One load per process: both decoders are WebAssembly modules, costly to instantiate and stateless to share.
let meshopt: Promise<unknown> | null = null;
let draco: Promise<unknown> | null = null;
const loaded: string[] = [];

/**
 * @internal
 * The decoders a file's `extensionsUsed` calls for, imported and instantiated the first time any file needs
 * them: meshoptimizer's for EXT_meshopt_compression, draco3dgltf's for KHR_draco_mesh_compression. A file that
 * uses neither loads neither.
 */
export async function load_gltf_decoders(extensions_used: readonly string[]): Promise<GLTFDecoders> {
    const out: GLTFDecoders = {};
    if (extensions_used.includes("EXT_meshopt_compression")) {
        meshopt ??= import("meshoptimizer/decoder").then(async ({ MeshoptDecoder }) => {
            await MeshoptDecoder.ready;
            loaded.push("meshopt");
            return MeshoptDecoder;
        });
        out["meshopt.decoder"] = await meshopt;
    }
    if (extensions_used.includes("KHR_draco_mesh_compression")) {
        draco ??= import("draco3dgltf").then(async (module) => {
            const decoder = await module.default.createDecoderModule({});
            loaded.push("draco");
            return decoder;
        });
        out["draco3d.decoder"] = await draco;
    }
    return out;
}

/** @internal Which decoders this process has loaded so far, in order (for tests). */
export function gltf_decoders_loaded(): readonly string[] {
    return loaded;
}
