// Light binning is conservative: every point a light can reach lands in a tile that lists the light
// (device-independent: CPU binning only).
import { mat4, vec4 } from "gl-matrix";
import { describe, expect, it } from "vitest";
import { LIGHT_TILE_SIZE, LightTiles } from "../../../../shade/renderer/mesh/LightTiles.js";
import { Camera } from "../../../../shade/renderer/scene/Camera.js";
import { PointLight } from "../../../../shade/renderer/scene/PointLight.js";
import { Scene } from "../../../../shade/renderer/scene/Scene.js";

const W = 320;
const H = 200;

// the one WebGPU constant LightTiles.upload reads, for this device-independent test
(globalThis as { GPUBufferUsage?: object }).GPUBufferUsage ??= { STORAGE: 0x80, COPY_DST: 0x08 };

// reads the binned lists back through the same layout the shader reads
function tile_lists(buffer: Uint32Array): number[][] {
    const [tiles_x, tiles_y] = buffer;
    const lists: number[][] = [];
    for (let t = 0; t < tiles_x * tiles_y; t++) {
        const first = buffer[4 + t * 2];
        const count = buffer[5 + t * 2];
        lists.push(Array.from(buffer.subarray(first, first + count)));
    }
    return lists;
}

describe("light tiles", () => {
    it("lists every light in every tile its range sphere can reach, and skips lights off screen", () => {
        const camera = new Camera();
        camera.position.set([0, 4, 10]);
        camera.target.set([0, 0, 0]);
        camera.update(W, H);
        const scene = new Scene();
        let seed = 7;
        const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
        for (let i = 0; i < 256; i++) {
            const light = scene.add_point_light(new PointLight());
            light.position.set([(random() - 0.5) * 30, random() * 3, (random() - 0.5) * 30 - 5]);
            light.range = 0.5 + random() * 3;
        }
        const tiles = new LightTiles();
        tiles.build(scene, camera.view_projection as Float32Array, W, H);
        let captured: Uint32Array | null = null;
        const fake_device = {
            createBuffer: (d: GPUBufferDescriptor) => ({ size: d.size, destroy() {} }),
            queue: { writeBuffer: (_b: unknown, _o: number, data: ArrayBuffer, offset: number, size: number) => (captured = new Uint32Array(data.slice(offset, offset + size))) },
        } as unknown as GPUDevice;
        tiles.upload(fake_device);
        const lists = tile_lists(captured!);
        const tiles_x = Math.ceil(W / LIGHT_TILE_SIZE);
        expect(lists.length).toBe(tiles_x * Math.ceil(H / LIGHT_TILE_SIZE));
        // sample points inside each light's sphere; where they are on screen, their tile must list the light
        const p = vec4.create();
        let checked = 0;
        for (let i = 0; i < 256; i++) {
            const light = scene.point_lights[i];
            for (let s = 0; s < 200; s++) {
                const d = [random() * 2 - 1, random() * 2 - 1, random() * 2 - 1];
                const r = light.range * Math.cbrt(random());
                const len = Math.hypot(d[0], d[1], d[2]) || 1;
                vec4.set(p, light.position[0] + (d[0] / len) * r, light.position[1] + (d[1] / len) * r, light.position[2] + (d[2] / len) * r, 1);
                vec4.transformMat4(p, p, camera.view_projection);
                if (p[3] <= camera.near) continue;
                const x = ((p[0] / p[3] + 1) / 2) * W;
                const y = ((1 - p[1] / p[3]) / 2) * H;
                if (x < 0 || y < 0 || x >= W || y >= H) continue;
                const tile = Math.floor(y / LIGHT_TILE_SIZE) * tiles_x + Math.floor(x / LIGHT_TILE_SIZE);
                if (!lists[tile].includes(i)) throw new Error(`light ${i} reaches pixel (${x.toFixed(1)}, ${y.toFixed(1)}) but tile ${tile} does not list it`);
                checked++;
            }
        }
        expect(checked).toBeGreaterThan(5000);
        // and binning culls: far fewer entries than every light in every tile
        expect(tiles.index_count).toBeLessThan(lists.length * 256 * 0.25);
    });

    it("a light behind the camera whose range reaches it covers the screen; one far off to the side covers nothing", () => {
        const camera = new Camera();
        camera.position.set([0, 0, 5]);
        camera.target.set([0, 0, 0]);
        camera.update(W, H);
        mat4.identity(mat4.create());
        const scene = new Scene();
        const around = scene.add_point_light(new PointLight());
        around.position.set([0, 0, 6]);
        around.range = 3;
        const aside = scene.add_point_light(new PointLight());
        aside.position.set([500, 0, 0]);
        aside.range = 1;
        const tiles = new LightTiles();
        tiles.build(scene, camera.view_projection as Float32Array, W, H);
        const tile_count = Math.ceil(W / LIGHT_TILE_SIZE) * Math.ceil(H / LIGHT_TILE_SIZE);
        expect(tiles.index_count).toBe(tile_count);
    });
});
