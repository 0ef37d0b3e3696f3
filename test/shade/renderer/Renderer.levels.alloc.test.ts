// Renderer.alloc.test.ts's levels-of-detail frame (coarser levels picked in the G-buffer and the shadow cascades) in
// a process of its own: run after that file's other tests it read 13-27 young bytes a frame in about half the runs
// of a fresh clone (alone it reads under the bound every run): JIT state of the process, as the skinned case's.
export {};
process.env.SHADE_ALLOC_LEVELS = "1";
await import("./Renderer.alloc.test.js");
