/** The glTF extensions a file may require and still load (others it uses are ignored, with a warning). */
export const SUPPORTED_GLTF_EXTENSIONS: readonly string[] = [
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    "KHR_materials_emissive_strength",
    "EXT_meshopt_compression",
    "KHR_draco_mesh_compression",
];
