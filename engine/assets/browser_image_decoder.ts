import type { ImageDecoder } from "./ImageDecoder.js";

/**
 * The browser's decoder: `createImageBitmap` decodes off the main thread. Colours are left as stored (no colour
 * space conversion, no premultiplication): the texture format says how to read them.
 */
export const browser_image_decoder: ImageDecoder = {
    async decode(bytes, mime_type) {
        const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mime_type });
        const bitmap = await createImageBitmap(blob, { colorSpaceConversion: "none", premultiplyAlpha: "none" });
        return { kind: "bitmap", width: bitmap.width, height: bitmap.height, bitmap };
    },
};
