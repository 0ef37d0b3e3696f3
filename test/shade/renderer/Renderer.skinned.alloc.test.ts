// Renderer.alloc.test.ts's skinned-mesh frame (two skins changed every frame, a rigid mesh) in a process of its
// own: run after that file's other tests, the same frame reads 300-600 young bytes that V8's sampling heap profiler
// attributes to no function (alone it reads under 3): JIT state of the process, not the frame; left to look into.
export {};
process.env.SHADE_ALLOC_SKINNED = "1";
await import("./Renderer.alloc.test.js");
