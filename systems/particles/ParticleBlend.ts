/** How an emitter's particles are blended into the scene colour (`ParticleEmitter.blend`). */
export const ParticleBlend = {
    /** Added to the scene colour (fire, sparks, magic): order-independent by nature. */
    Additive: 0,
    /** Covering (smoke, dust): weighted blended order-independent transparency, no sorting. */
    Alpha: 1,
} as const;

export type ParticleBlend = (typeof ParticleBlend)[keyof typeof ParticleBlend];
