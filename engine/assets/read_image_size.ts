/**
 * @internal
 * Width and height from a PNG's IHDR or a JPEG's first frame header, without decoding; null when the bytes are
 * neither (or are cut before the header). Lets the loader refuse an image too large for the device before it
 * spends time and memory decoding it.
 */
export function read_image_size(bytes: Uint8Array): { width: number; height: number } | null {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452) {
        return { width: view.getUint32(16), height: view.getUint32(20) };
    }
    if (bytes.byteLength < 4 || view.getUint16(0) !== 0xffd8) return null;
    let at = 2;
    while (at + 9 <= bytes.byteLength) {
        if (bytes[at] !== 0xff) return null;
        const marker = bytes[at + 1];
        if (marker === 0xff) {
            at++; // fill byte
            continue;
        }
        const length = view.getUint16(at + 2);
        // SOF0..SOF15 carry the frame size, except DHT (c4), JPG (c8) and DAC (cc)
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
            return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
        }
        at += 2 + length;
    }
    return null;
}
