/** A decoded image: 8-bit RGBA rows, top row first (Node), or an ImageBitmap (the browser). */
export type DecodedImage =
    | { readonly kind: "pixels"; readonly width: number; readonly height: number; readonly data: Uint8Array }
    | { readonly kind: "bitmap"; readonly width: number; readonly height: number; readonly bitmap: ImageBitmap };
