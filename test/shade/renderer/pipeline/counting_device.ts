// A real Dawn device seen through a counting proxy: every method call goes to the device itself (bound to it,
// as Dawn's native methods require), and `createRenderPipeline` calls are counted. Not a mock: the GPU work is real.

export interface CountingDevice {
    readonly device: GPUDevice;
    /** `createRenderPipeline` calls so far. */
    readonly counts: { render_pipelines: number };
}

export function counting_device(device: GPUDevice): CountingDevice {
    const counts = { render_pipelines: 0 };
    const bound = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(device, {
        get(target, key) {
            const value: unknown = Reflect.get(target, key, target);
            if (typeof value !== "function") return value;
            let fn = bound.get(key);
            if (fn === undefined) {
                const method = value as (...args: unknown[]) => unknown;
                fn =
                    key === "createRenderPipeline"
                        ? (...args: unknown[]) => {
                              counts.render_pipelines++;
                              return method.apply(target, args);
                          }
                        : method.bind(target);
                bound.set(key, fn);
            }
            return fn;
        },
    });
    return { device: proxy, counts };
}
