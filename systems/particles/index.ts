export { GPUParticleEmitterSystem, type GPUParticleEmitterSystemOptions } from "./GPUParticleEmitterSystem.js";
export { ParticleExtension } from "./ParticleExtension.js";
export { ParticleEmitter } from "./ParticleEmitter.js";
export { ParticleBlend } from "./ParticleBlend.js";
export { add_particle_emitter, type ParticleEmitterSpec } from "./add_particle_emitter.js";
export type { ParticleReadback } from "./ParticleRuntime.js";
export { ParticleEmitterDescriptor } from "./ParticleEmitterDescriptor.js";
