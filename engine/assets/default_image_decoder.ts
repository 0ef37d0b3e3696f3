import { browser_image_decoder } from "./browser_image_decoder.js";
import type { ImageDecoder } from "./ImageDecoder.js";
import { NodeImageDecoder } from "./NodeImageDecoder.js";

let node_decoder: NodeImageDecoder | null = null;

/** `createImageBitmap` where there is one (browsers, workers); else one shared pool of Node decoding threads. */
export function default_image_decoder(): ImageDecoder {
    if (typeof createImageBitmap === "function") return browser_image_decoder;
    return (node_decoder ??= new NodeImageDecoder());
}
