import type { TextureAllocator } from "../../../../shade/device/graph/TextureAllocator.js";
import type { TextureResourceDescriptor } from "../../../../shade/device/graph/TextureResourceDescriptor.js";
import type { FrameExecutionTarget } from "../../../../shade/device/graph/FrameExecution.js";

/** A fake texture: device-independent tests of the graph's logic only. */
export interface FakeTexture {
    readonly id: number;
    readonly descriptor: TextureResourceDescriptor;
    readonly label: string;
    destroyed: boolean;
}

/** FAKE allocator (no GPU): records what the pool creates and destroys. */
export class FakeAllocator implements TextureAllocator<FakeTexture, string> {
    next_id = 1;
    readonly created: FakeTexture[] = [];
    readonly destroyed: FakeTexture[] = [];

    create(descriptor: TextureResourceDescriptor, label: string): FakeTexture {
        const t: FakeTexture = { id: this.next_id++, descriptor, label, destroyed: false };
        this.created.push(t);
        return t;
    }

    view(texture: FakeTexture): string {
        return `view of #${texture.id}`;
    }

    destroy(texture: FakeTexture): void {
        texture.destroyed = true;
        this.destroyed.push(texture);
    }
}

/** FAKE execution (no GPU): an encoder that only logs debug groups. */
export function fake_execution(log: string[] = []): FrameExecutionTarget & { log: string[] } {
    const encoder = {
        pushDebugGroup(label: string) {
            log.push(`push ${label}`);
        },
        popDebugGroup() {
            log.push("pop");
        },
    };
    return { graphics: null as unknown as GPUDevice, encoder: encoder as unknown as GPUCommandEncoder, log };
}
