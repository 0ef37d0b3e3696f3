import type { RenderExtension } from "./RenderExtension.js";

/**
 * How errors name an extension: `'fog of war' (FogOfWarSystem)` with its owner, `'markers'` without one. Never
 * throws, whatever the extension holds (it names broken extensions too).
 */
export function extension_label(extension: Pick<RenderExtension, "name" | "owner">): string {
    const owner = extension?.owner;
    const name = `'${String(extension?.name)}'`;
    return owner !== null && owner !== undefined && typeof owner.name === "string" ? `${name} (${owner.name})` : name;
}
