// Lit meshes check their index ranges at upload in development builds, as dynamic meshes do (Dawn).
import { describe, expect, it } from "vitest";
import { make_box_geometry } from "../../../../shade/renderer/geometry/primitives/make_box_geometry.js";
import { GPUGeometryCache, type GPUGeometry } from "../../../../shade/renderer/mesh/GPUGeometryCache.js";
import { MeshSkin } from "../../../../shade/renderer/scene/MeshSkin.js";
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

    it("a skin's skinned buffers: set, read by the cache they were set in (and another device's cache apart), let go", async () => {
        await with_gpu_device((device) => {
            const a = new GPUGeometryCache(device);
            const b = new GPUGeometryCache(device);
            const skin = new MeshSkin(2, "skin");
            const geometry = make_box_geometry(1, 1, 1);
            // stand-ins: the cache only keeps and hands back what the skinning step gives it
            const in_a = { ...a.get(geometry, null) } as GPUGeometry;
            const in_b = { ...b.get(geometry, null) } as GPUGeometry;
            expect(a.skinned(skin)).toBeUndefined();
            a.set_skinned(skin, in_a);
            b.set_skinned(skin, in_b);
            expect([a.skinned(skin), b.skinned(skin), a.get(geometry, skin), b.get(geometry, skin)]).toEqual([in_a, in_b, in_a, in_b]);
            expect(a.skinned(skin)).toBe(in_a);
            b.set_skinned(skin, null);
            expect(b.skinned(skin)).toBeUndefined();
            expect(b.get(geometry, skin)).not.toBe(in_b);
            expect(a.skinned(skin)).toBe(in_a);
            a.set_skinned(skin, null);
            expect(a.skinned(skin)).toBeUndefined();
        });
    });
});
