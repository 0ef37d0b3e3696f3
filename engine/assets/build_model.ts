import type { Document, Mesh, Node, Skin, Texture } from "@gltf-transform/core";
import type { AnimationClip } from "../animation/AnimationClip.js";
import { AssetError } from "./AssetError.js";
import type { DecodedImage } from "./DecodedImage.js";
import type { ImageDecoder } from "./ImageDecoder.js";
import type { MaterialDescription } from "./MaterialDescription.js";
import { Model } from "./Model.js";
import type { ModelMesh } from "./ModelMesh.js";
import type { ModelNode } from "./ModelNode.js";
import type { ModelPrimitive } from "./ModelPrimitive.js";
import type { ModelSkin } from "./ModelSkin.js";
import type { ModelTexture } from "./ModelTexture.js";
import { read_accessor } from "./read_accessor.js";
import { read_animation } from "./read_animation.js";
import { read_image_size } from "./read_image_size.js";
import { read_material } from "./read_material.js";
import { read_primitive } from "./read_primitive.js";
import { upload_geometry } from "./upload_geometry.js";
import { upload_texture } from "./upload_texture.js";

/** @internal Where a model's GPU objects go, and how its images are decoded. */
export interface BuildTarget {
    readonly device: GPUDevice;
    readonly decoder: ImageDecoder;
    /** Called once per image decoded (progress). */
    readonly on_image?: () => void;
}

interface TextureUse {
    readonly texture: Texture;
    readonly image: number;
    readonly color_space: "srgb" | "linear";
}

/** @internal How many images `build_model` will decode for `document`: those its materials use (for the progress totals). */
export function images_to_decode(document: Document): number {
    const used = new Set<Texture>();
    const root = document.getRoot();
    for (const material of root.listMaterials()) {
        const textures = [
            material.getBaseColorTexture(),
            material.getEmissiveTexture(),
            material.getMetallicRoughnessTexture(),
            material.getNormalTexture(),
            material.getOcclusionTexture(),
        ];
        for (const texture of textures) if (texture !== null) used.add(texture);
    }
    return used.size;
}

/**
 * @internal
 * A Model from a read glTF-Transform document. Everything on the CPU is read and checked first; then the images
 * are decoded (those materials use) and the GPU objects made. Any failure, a GPU validation error included,
 * destroys what was made and rejects with an AssetError: nothing is left half-created.
 */
export async function build_model(file: string, document: Document, target: BuildTarget, warnings: string[]): Promise<Model> {
    const root = document.getRoot();
    const nodes_in = root.listNodes();
    const node_index = new Map<Node, number>(nodes_in.map((n, i) => [n, i]));
    const mesh_index = new Map<Mesh, number>(root.listMeshes().map((m, i) => [m, i]));
    const skin_index = new Map<Skin, number>(root.listSkins().map((s, i) => [s, i]));
    const image_index = new Map<Texture, number>(root.listTextures().map((t, i) => [t, i]));

    const uses: TextureUse[] = [];
    const slot_of = new Map<string, number>();
    const materials: MaterialDescription[] = root.listMaterials().map((material) =>
        read_material(material, (texture, color_space) => {
            const image = image_index.get(texture)!;
            const key = `${image}:${color_space}`;
            let slot = slot_of.get(key);
            if (slot === undefined) {
                slot = uses.length;
                slot_of.set(key, slot);
                uses.push({ texture, image, color_space });
            }
            return slot;
        }),
    );
    const material_index = new Map(root.listMaterials().map((m, i) => [m, i]));

    const geometries = root.listMeshes().map((mesh, m) =>
        mesh.listPrimitives().map((primitive, p) => {
            const geometry = read_primitive(file, `meshes[${m}].primitives[${p}]`, primitive);
            if (geometry === null) warnings.push(`meshes[${m}].primitives[${p}]: mode ${primitive.getMode()} (points or lines) is not drawn; left out`);
            const material = primitive.getMaterial();
            return { geometry, material: material === null ? -1 : material_index.get(material)!, targets: primitive.listTargets().length };
        }),
    );

    const skins: ModelSkin[] = root.listSkins().map((skin) => {
        const joints = skin.listJoints().map((joint) => node_index.get(joint)!);
        const accessor = skin.getInverseBindMatrices();
        const matrices = new Float32Array(joints.length * 16);
        if (accessor === null) for (let j = 0; j < joints.length; j++) matrices.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], j * 16);
        else matrices.set(read_accessor(accessor).subarray(0, matrices.length));
        const skeleton = skin.getSkeleton();
        return { name: skin.getName(), joints, inverse_bind_matrices: matrices, skeleton: skeleton === null ? -1 : node_index.get(skeleton)! };
    });

    const animations: AnimationClip[] = root.listAnimations().map((animation, a) => read_animation(file, a, animation, node_index));

    const nodes: ModelNode[] = nodes_in.map((node, index) => {
        const parent = node.getParentNode();
        const mesh = node.getMesh();
        const skin = node.getSkin();
        const weights = node.getWeights().length > 0 ? node.getWeights() : (mesh?.getWeights() ?? []);
        return {
            index,
            name: node.getName(),
            translation: Float32Array.from(node.getTranslation()),
            rotation: normalised(Float32Array.from(node.getRotation())),
            scale: Float32Array.from(node.getScale()),
            parent: parent === null ? -1 : node_index.get(parent)!,
            children: node.listChildren().map((child) => node_index.get(child)!),
            mesh: mesh === null ? -1 : mesh_index.get(mesh)!,
            skin: skin === null ? -1 : skin_index.get(skin)!,
            weights: Float32Array.from(weights),
        };
    });
    const scene = root.getDefaultScene() ?? root.listScenes()[0] ?? null;
    const scene_roots = scene === null ? nodes.filter((n) => n.parent === -1).map((n) => n.index) : scene.listChildren().map((n) => node_index.get(n)!);

    const images = await decode_images(file, uses, target);
    const { device } = target;
    const made: { destroy(): void }[] = [];
    device.pushErrorScope("validation");
    device.pushErrorScope("out-of-memory");
    let failure: unknown = null;
    const textures: ModelTexture[] = [];
    const meshes: ModelMesh[] = [];
    try {
        uses.forEach((use, slot) => {
            const image = images[slot];
            const name = use.texture.getName() || use.texture.getURI() || `image ${use.image}`;
            const texture = upload_texture(device, image, use.color_space, `${file} images[${use.image}] '${name}' (${use.color_space})`);
            made.push(texture);
            textures.push({ image: use.image, name, color_space: use.color_space, texture, width: image.width, height: image.height });
        });
        root.listMeshes().forEach((mesh, m) => {
            const primitives: ModelPrimitive[] = [];
            geometries[m].forEach(({ geometry, material, targets }, p) => {
                if (geometry === null) return;
                const buffers = upload_geometry(device, geometry, `${file} meshes[${m}].primitives[${p}]`);
                made.push(buffers.vertex, buffers.index);
                primitives.push({ geometry, material, buffers, morph_targets: targets });
            });
            meshes.push({ name: mesh.getName(), primitives, weights: Float32Array.from(mesh.getWeights()) });
        });
    } catch (error) {
        failure = error;
    } finally {
        for (const image of images) if (image.kind === "bitmap") image.bitmap.close();
    }
    // both popped before any await, so that another load's scopes on this device cannot interleave with ours
    const popped = [device.popErrorScope(), device.popErrorScope()];
    const [memory, validation] = await Promise.all(popped);
    if (failure !== null || memory !== null || validation !== null) {
        for (const object of made) object.destroy();
        const reason = failure !== null ? (failure as Error).message : (memory ?? validation)!.message;
        throw new AssetError(file, "", `could not be put on the GPU: ${reason}`, { cause: failure ?? memory ?? validation });
    }
    return new Model({ url: file, nodes, scene_roots, meshes, materials, textures, skins, animations, warnings });
}

async function decode_images(file: string, uses: readonly TextureUse[], target: BuildTarget): Promise<DecodedImage[]> {
    const limit = target.device.limits.maxTextureDimension2D;
    const too_large = (image: number, width: number, height: number): never => {
        throw new AssetError(file, `images[${image}]`, `is ${width}x${height}, larger than the device's maxTextureDimension2D (${limit})`);
    };
    // one decode per image, shared by its sRGB and linear uses
    const pending = new Map<number, Promise<DecodedImage>>();
    for (const use of uses) {
        if (pending.has(use.image)) continue;
        const bytes = use.texture.getImage();
        if (bytes === null) throw new AssetError(file, `images[${use.image}]`, "has no data");
        const size = read_image_size(bytes);
        if (size !== null && (size.width > limit || size.height > limit)) too_large(use.image, size.width, size.height);
        const decode = target.decoder.decode(bytes, use.texture.getMimeType()).then(
            (image) => {
                target.on_image?.();
                return image;
            },
            (error: unknown) => {
                throw new AssetError(file, `images[${use.image}]`, `could not be decoded as ${use.texture.getMimeType() || "an image"} (${(error as Error).message})`, { cause: error });
            },
        );
        pending.set(use.image, decode);
    }
    const settled = await Promise.allSettled(pending.values());
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    const decoded = new Map<number, DecodedImage>();
    [...pending.keys()].forEach((image, i) => {
        const result = settled[i];
        if (result.status === "fulfilled") decoded.set(image, result.value);
    });
    const close_all = (): void => {
        for (const image of decoded.values()) if (image.kind === "bitmap") image.bitmap.close();
    };
    if (failed !== undefined) {
        close_all();
        throw failed.reason;
    }
    for (const [image, result] of decoded) {
        if (result.width > limit || result.height > limit) {
            close_all();
            too_large(image, result.width, result.height);
        }
    }
    return uses.map((use) => decoded.get(use.image)!);
}

function normalised(q: Float32Array): Float32Array {
    const length = Math.hypot(q[0], q[1], q[2], q[3]);
    if (length > 0) for (let i = 0; i < 4; i++) q[i] /= length;
    else q.set([0, 0, 0, 1]);
    return q;
}
