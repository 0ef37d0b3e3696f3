import type { ComponentDescriptor } from "./ComponentDescriptor.js";
import type { ComponentLimit } from "./ComponentLimit.js";

/** JSON keys of an entity that are not components. */
export const RESERVED_ENTITY_KEYS: readonly string[] = ["name", "parent"];

/**
 * The components level files may use, by JSON name (`entityManager.components`). Systems register their
 * descriptors in `startup`; registering the same descriptor again is a no-op, so startup after shutdown is fine.
 */
export class ComponentRegistry {
    readonly #by_name = new Map<string, ComponentDescriptor>();
    readonly #by_component = new Map<object, ComponentDescriptor>();
    readonly #list: ComponentDescriptor[] = [];
    readonly #limits = new Map<ComponentDescriptor, ComponentLimit[]>();
    #version = 0;

    /** Adds `descriptor`; a different descriptor under a taken name, or for a taken component, throws. */
    register(descriptor: ComponentDescriptor): void {
        const taken = this.#by_name.get(descriptor.name);
        if (taken === descriptor) return;
        if (taken !== undefined) throw new Error(`ComponentRegistry.register: another descriptor is already registered as '${descriptor.name}'`);
        if (RESERVED_ENTITY_KEYS.includes(descriptor.name)) throw new Error(`ComponentRegistry.register: '${descriptor.name}' is reserved in level entities`);
        const other = this.#by_component.get(descriptor.component);
        if (other !== undefined) {
            throw new Error(`ComponentRegistry.register: '${descriptor.name}' describes the component already described by '${other.name}'`);
        }
        this.#by_name.set(descriptor.name, descriptor);
        this.#by_component.set(descriptor.component, descriptor);
        this.#list.push(descriptor);
        this.#version++;
    }

    get(name: string): ComponentDescriptor | undefined {
        return this.#by_name.get(name);
    }

    /** The descriptor of a bitecs component, if it has one. */
    of(component: object): ComponentDescriptor | undefined {
        return this.#by_component.get(component);
    }

    /** In registration order (the order `save_level` writes components in). */
    get descriptors(): readonly ComponentDescriptor[] {
        return this.#list;
    }

    /**
     * Adds a system's limit on `descriptor`'s values, checked by `load_level` (see `ComponentLimit`); returns the
     * function that removes it (call it in the system's `shutdown`). The descriptor need not be registered yet.
     */
    add_limit<V extends object>(descriptor: ComponentDescriptor<V>, limit: ComponentLimit<V>): () => void {
        const general = limit as unknown as ComponentLimit;
        const key = descriptor as ComponentDescriptor;
        let list = this.#limits.get(key);
        if (list === undefined) {
            list = [];
            this.#limits.set(key, list);
        }
        list.push(general);
        return () => {
            const at = list.indexOf(general);
            if (at !== -1) list.splice(at, 1);
        };
    }

    /** The limits systems have put on `descriptor`'s values, in the order added. */
    limits_of(descriptor: ComponentDescriptor): readonly ComponentLimit[] {
        return this.#limits.get(descriptor) ?? [];
    }

    /** Changes whenever a descriptor is registered (the level loader caches its compiled schema on it). */
    get version(): number {
        return this.#version;
    }
}
