// FAKE texture allocator and encoder for the device-independent benches (no GPU). Benches do not import tests.
import type { TextureAllocator } from "../shade/device/graph/TextureAllocator.js";
import type { TextureResourceDescriptor } from "../shade/device/graph/TextureResourceDescriptor.js";

/** A FAKE texture: carries its shape (so the graph can import it without a descriptor) and a view made once. */
export interface FakeTexture {
    readonly id: number;
    readonly descriptor: TextureResourceDescriptor;
    readonly label: string;
    readonly width: number;
    readonly height: number;
    readonly format: GPUTextureFormat;
    readonly usage: number;
    /** Made once, so that `view()` allocates nothing. */
    readonly view: string;
    destroyed: boolean;
}

/** FAKE allocator (no GPU): counts what the pool creates and destroys. */
export class FakeAllocator implements TextureAllocator<FakeTexture, string> {
    next_id = 1;
    created = 0;
    destroyed = 0;

    create(descriptor: TextureResourceDescriptor, label: string): FakeTexture {
        const id = this.next_id++;
        this.created++;
        const { width, height, format, usage } = descriptor;
        return { id, descriptor, label, width, height, format, usage, view: `view of #${id}`, destroyed: false };
    }

    view(texture: FakeTexture): string {
        return texture.view;
    }

    destroy(texture: FakeTexture): void {
        texture.destroyed = true;
        this.destroyed++;
    }
}

/** FAKE encoder (no GPU): counts and balances debug groups, records nothing. */
export class FakeEncoder {
    depth = 0;
    groups = 0;
    pushDebugGroup(_label: string): void {
        this.depth++;
        this.groups++;
    }
    popDebugGroup(): void {
        this.depth--;
    }
}
