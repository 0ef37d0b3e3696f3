/**
 * Most entities alive at once; component stores are sized for it (`new Float32Array(MAX_ENTITIES * 3)`).
 * In its own module so that component files can import it without a cycle through `EntityManager`.
 */
export const MAX_ENTITIES = 65536;
