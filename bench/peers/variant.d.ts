// The runner bundles page.ts once per variant with esbuild aliasing "@variant" to bench/peers/variants/<name>.ts;
// this declares that module's shape for the type checker (the contract of workload.ts, spelled structurally
// because an ambient module cannot import a relative path).
declare module "@variant" {
    const create: (
        canvas: HTMLCanvasElement,
        workload: { readonly boxes: Float32Array; readonly ribbons: Float32Array },
    ) => Promise<{ update(t: number): void; render(): void; readonly device: GPUDevice }>;
    export default create;
}
