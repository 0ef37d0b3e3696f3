/** The colour the hello sample clears its canvas to; test/browser/sample.test.ts checks for it. */
export const CLEAR_COLOR: GPUColorDict = { r: 0.2, g: 0.4, b: 0.8, a: 1 };
