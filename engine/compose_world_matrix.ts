// The world matrix of one entity from its Transform and its parent's world matrix.

/**
 * world(eid) = world(parent) x T x R x S, written into `W` at `eid * 16` (a root: T x R x S). Hand-fused rather
 * than gl-matrix's fromRotationTranslationScale + multiply: those take whole matrices, so every entity would
 * be copied in and out of scratch matrices, about doubling the cost. World matrices are built only from
 * translation, rotation and scale, so they are affine and the parent's last row is (0, 0, 0, 1).
 */
export function compose_world_matrix(T: Float32Array, R: Float32Array, S: Float32Array, W: Float32Array, eid: number, parent: number): void {
    const p = eid * 3;
    const r = eid * 4;
    const m = eid * 16;
    const x = R[r];
    const y = R[r + 1];
    const z = R[r + 2];
    const w = R[r + 3];
    const x2 = x + x;
    const y2 = y + y;
    const z2 = z + z;
    const xx = x * x2;
    const xy = x * y2;
    const xz = x * z2;
    const yy = y * y2;
    const yz = y * z2;
    const zz = z * z2;
    const wx = w * x2;
    const wy = w * y2;
    const wz = w * z2;
    const sx = S[p];
    const sy = S[p + 1];
    const sz = S[p + 2];
    const l0 = (1 - (yy + zz)) * sx;
    const l1 = (xy + wz) * sx;
    const l2 = (xz - wy) * sx;
    const l4 = (xy - wz) * sy;
    const l5 = (1 - (xx + zz)) * sy;
    const l6 = (yz + wx) * sy;
    const l8 = (xz + wy) * sz;
    const l9 = (yz - wx) * sz;
    const l10 = (1 - (xx + yy)) * sz;
    const tx = T[p];
    const ty = T[p + 1];
    const tz = T[p + 2];
    if (parent < 0) {
        W[m] = l0;
        W[m + 1] = l1;
        W[m + 2] = l2;
        W[m + 3] = 0;
        W[m + 4] = l4;
        W[m + 5] = l5;
        W[m + 6] = l6;
        W[m + 7] = 0;
        W[m + 8] = l8;
        W[m + 9] = l9;
        W[m + 10] = l10;
        W[m + 11] = 0;
        W[m + 12] = tx;
        W[m + 13] = ty;
        W[m + 14] = tz;
        W[m + 15] = 1;
        return;
    }
    const q = parent * 16;
    const a0 = W[q];
    const a1 = W[q + 1];
    const a2 = W[q + 2];
    const a4 = W[q + 4];
    const a5 = W[q + 5];
    const a6 = W[q + 6];
    const a8 = W[q + 8];
    const a9 = W[q + 9];
    const a10 = W[q + 10];
    W[m] = a0 * l0 + a4 * l1 + a8 * l2;
    W[m + 1] = a1 * l0 + a5 * l1 + a9 * l2;
    W[m + 2] = a2 * l0 + a6 * l1 + a10 * l2;
    W[m + 3] = 0;
    W[m + 4] = a0 * l4 + a4 * l5 + a8 * l6;
    W[m + 5] = a1 * l4 + a5 * l5 + a9 * l6;
    W[m + 6] = a2 * l4 + a6 * l5 + a10 * l6;
    W[m + 7] = 0;
    W[m + 8] = a0 * l8 + a4 * l9 + a8 * l10;
    W[m + 9] = a1 * l8 + a5 * l9 + a9 * l10;
    W[m + 10] = a2 * l8 + a6 * l9 + a10 * l10;
    W[m + 11] = 0;
    W[m + 12] = a0 * tx + a4 * ty + a8 * tz + W[q + 12];
    W[m + 13] = a1 * tx + a5 * ty + a9 * tz + W[q + 13];
    W[m + 14] = a2 * tx + a6 * ty + a10 * tz + W[q + 14];
    W[m + 15] = 1;
}
