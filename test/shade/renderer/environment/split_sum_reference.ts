// A CPU reference of the split-sum BRDF integral (Karis 2013): (A, B) such that the GGX specular of a white
// environment is F0 * A + B. Jittered stratified samples from a seeded generator, not the shader's Hammersley
// points, so the two agree only if both integrate the same thing.

function g_ibl(n_v: number, n_l: number, roughness: number): number {
    const k = (roughness * roughness) / 2;
    return (n_v / (n_v * (1 - k) + k)) * (n_l / (n_l * (1 - k) + k));
}

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
    let s = seed >>> 0;
    return () => {
        s = (s + 0x6d2b79f5) >>> 0;
        let t = s;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/**
 * (A, B) at `n_v` and perceptual `roughness`, by stratified Monte-Carlo over about `samples` half vectors drawn
 * with density D(h) n.h (the estimator of the BRDF x n.l then simplifies to G v.h / (n.h n.v)).
 */
export function split_sum_reference(n_v: number, roughness: number, samples: number): [number, number] {
    const a = roughness * roughness;
    const v = [Math.sqrt(1 - n_v * n_v), 0, n_v];
    const next = random(12345);
    let sum_a = 0;
    let sum_b = 0;
    const side = Math.round(Math.sqrt(samples));
    for (let j = 0; j < side; j++) {
        for (let i = 0; i < side; i++) {
            const u1 = (i + next()) / side;
            const u2 = (j + next()) / side;
            const phi = 2 * Math.PI * u1;
            const cos_t = Math.sqrt((1 - u2) / (1 + (a * a - 1) * u2));
            const sin_t = Math.sqrt(Math.max(1 - cos_t * cos_t, 0));
            const h = [sin_t * Math.cos(phi), sin_t * Math.sin(phi), cos_t];
            const v_h = v[0] * h[0] + v[1] * h[1] + v[2] * h[2];
            const l_z = 2 * v_h * h[2] - v[2];
            if (l_z <= 0) continue;
            const g_vis = (g_ibl(n_v, l_z, roughness) * v_h) / (h[2] * n_v);
            const fc = Math.pow(1 - v_h, 5);
            sum_a += (1 - fc) * g_vis;
            sum_b += fc * g_vis;
        }
    }
    const n = side * side;
    return [sum_a / n, sum_b / n];
}
