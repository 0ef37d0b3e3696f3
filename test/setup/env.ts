// Runs before every test file. Dawn (the `webgpu` package) finds a Vulkan driver through the loader;
// on machines without a GPU that driver is Chromium's SwiftShader (see TESTING.md, Path 1).
// An explicit VK_ICD_FILENAMES / VK_DRIVER_FILES (e.g. a real GPU's ICD) is left alone.
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

if (!process.env.VK_ICD_FILENAMES && !process.env.VK_DRIVER_FILES) {
  process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
}
