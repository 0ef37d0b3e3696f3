// Lit meshes check their index ranges at upload in development builds, as dynamic meshes do (Dawn).
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { GPUGeometryCache } from "../../../../shade/renderer/mesh/GPUGeometryCache.js";
import { with_gpu_device } from "../../../harness/index.js";

describe("GPUGeometryCache", () => {
    it("an index past the vertex count is refused at upload, naming the index and the count", async () => {
        await with_gpu_device((device) => {
            const cache = new GPUGeometryCache(device);
            const geometry = make_box_geometry(1, 1, 1);
            expect(cache.get(geometry, null).index_count).toBe(36);
            geometry.index[7] = geometry.vertex_count; // one past the end
            geometry.needsUpdate = true;
            expect(() => cache.get(geometry, null)).toThrow(
                `Mesh geometry: index 7 is ${geometry.vertex_count}, but the geometry has ${geometry.vertex_count} vertices`,
            );
        });
    });
});
