/**
 * Finds where a blue and a red unit meet: the red units are bucketed by ground cell (a counting sort into arrays
 * kept between calls), and each blue unit looks at the 3x3 cells around its own, so a search costs the units, not
 * blue times red (2,000 units: 2,000 looks, not a million pairs). It answers the pair a scan of blue, then red, in
 * list order would: the first blue unit with a red one in reach, and the first such red unit. Allocates nothing
 * once its arrays fit.
 */
export class ImpactGrid {
    /** The pair found by the last `find`: entity ids (-1 when none). */
    blue = -1;
    red = -1;
    #cell_of = new Int32Array(0);
    #start = new Int32Array(0);
    #items = new Int32Array(0);

    /**
     * Looks for a team-0 entity and a team-1 entity of `entities` whose squared ground distance (x and z of
     * `positions`, 3 floats an entity) is at most `reach2`. True when found (`blue`, `red`).
     */
    find(entities: ArrayLike<number>, team: ArrayLike<number>, positions: ArrayLike<number>, reach2: number): boolean {
        this.blue = -1;
        this.red = -1;
        const n = entities.length;
        let min_x = Infinity;
        let min_z = Infinity;
        let max_x = -Infinity;
        let max_z = -Infinity;
        let reds = 0;
        for (let k = 0; k < n; k++) {
            const e = entities[k];
            if (team[e] !== 1) continue;
            reds++;
            const x = positions[e * 3];
            const z = positions[e * 3 + 2];
            if (x < min_x) min_x = x;
            if (x > max_x) max_x = x;
            if (z < min_z) min_z = z;
            if (z > max_z) max_z = z;
        }
        if (reds === 0) return false;
        // cells at least `reach` wide, at most 64k of them (units spread far apart get wider cells)
        let size = Math.max(Math.sqrt(reach2), 1e-3);
        while (((max_x - min_x) / size + 1) * ((max_z - min_z) / size + 1) > 65536) size *= 2;
        const columns = Math.floor((max_x - min_x) / size) + 1;
        const rows = Math.floor((max_z - min_z) / size) + 1;
        const cells = columns * rows;
        if (this.#start.length < cells + 2) this.#start = new Int32Array(cells + 2);
        if (this.#cell_of.length < n) this.#cell_of = new Int32Array(n);
        if (this.#items.length < reds) this.#items = new Int32Array(reds);
        const start = this.#start;
        const cell_of = this.#cell_of;
        const items = this.#items;
        start.fill(0, 0, cells + 2);
        for (let k = 0; k < n; k++) {
            const e = entities[k];
            if (team[e] !== 1) continue;
            const c = Math.floor((positions[e * 3 + 2] - min_z) / size) * columns + Math.floor((positions[e * 3] - min_x) / size);
            cell_of[k] = c;
            start[c + 1]++;
        }
        for (let c = 0; c < cells; c++) start[c + 1] += start[c];
        // start[c + 1] is cell c's end; filled back to front (k falling), it ends at the cell's first item, so cell
        // c is items[start[c + 1] .. start[c + 2]) in list order
        for (let k = n - 1; k >= 0; k--) {
            const e = entities[k];
            if (team[e] !== 1) continue;
            items[--start[cell_of[k] + 1]] = k;
        }
        start[cells + 1] = reds;
        for (let k = 0; k < n; k++) {
            const ea = entities[k];
            if (team[ea] !== 0) continue;
            const x = positions[ea * 3];
            const z = positions[ea * 3 + 2];
            const cx = Math.floor((x - min_x) / size);
            const cz = Math.floor((z - min_z) / size);
            let best = n;
            for (let dz = -1; dz <= 1; dz++) {
                const row = cz + dz;
                if (row < 0 || row >= rows) continue;
                for (let dx = -1; dx <= 1; dx++) {
                    const column = cx + dx;
                    if (column < 0 || column >= columns) continue;
                    const c = row * columns + column;
                    for (let i = start[c + 1]; i < start[c + 2]; i++) {
                        const kb = items[i];
                        if (kb >= best) continue;
                        const eb = entities[kb];
                        const ddx = x - positions[eb * 3];
                        const ddz = z - positions[eb * 3 + 2];
                        if (ddx * ddx + ddz * ddz <= reach2) best = kb;
                    }
                }
            }
            if (best < n) {
                this.blue = ea;
                this.red = entities[best];
                return true;
            }
        }
        return false;
    }
}
