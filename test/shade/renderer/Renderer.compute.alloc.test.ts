// Renderer.alloc.test.ts again, with every full-screen step (lighting, TAA resolve and sharpen, tonemap,
// half-resolution colour, FullscreenEffects) on its compute path: in a process of its own, as a device runs one
// path all its life.
export {};
process.env.SHADE_ALLOC_PATHS = "compute";
await import("./Renderer.alloc.test.js");
