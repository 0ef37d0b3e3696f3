import type { DecodedImage } from "./DecodedImage.js";

/**
 * Turns a PNG or JPEG file into pixels away from the main thread. Rejects with a reason when the bytes are not an
 * image it can read; the loader names the image.
 */
export interface ImageDecoder {
    decode(bytes: Uint8Array, mime_type: string): Promise<DecodedImage>;
}
