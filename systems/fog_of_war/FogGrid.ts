import { FogCellState } from "./FogCellState.js";

export interface FogGridOptions {
    /** Cells along world x and world z. */
    readonly width: number;
    readonly height: number;
    /** `[min_x, min_z, max_x, max_z]` in world units: the area the grid covers. */
    readonly bounds: readonly [number, number, number, number];
    /** Teams tracked (team ids 0 .. teams - 1). */
    readonly teams: number;
    /** The team whose view `level` shows. */
    readonly view_team: number;
    /** Seconds a cell takes to fade from hidden to visible (0: at once). */
    readonly fade_time: number;
    /** The displayed level of an explored cell, between hidden (0) and visible (1). */
    readonly explored_level: number;
}

/**
 * The fog-of-war grid on the CPU, device-independent. Each team has a reference count per cell (how many of
 * its revealers see the cell: team vision is shared) and an explored flag; a cell is visible to a team while
 * its count is above 0. A revealer is a disc of cells around the cell it stands in, applied with `reveal`
 * and taken back with `conceal` when it crosses into another cell, so a unit moving inside a cell costs
 * nothing and cells seen by two units never blink as one of them leaves.
 *
 * For the team shown, `level` (0 hidden, `explored_level`, 1 visible) follows each cell's state over
 * `fade_time`; `pixels` is `level` as bytes and the rows `dirty_min_row ..= dirty_max_row` changed since
 * `clean()`. Only cells whose state changed are walked per step (a list of fading cells).
 */
export class FogGrid {
    readonly width: number;
    readonly height: number;
    readonly min_x: number;
    readonly min_z: number;
    readonly max_x: number;
    readonly max_z: number;
    /** World units per cell along x and z. */
    readonly cell_x: number;
    readonly cell_z: number;
    readonly teams: number;
    /** Revealers seeing each cell, per team. */
    readonly counts: Uint16Array[] = [];
    /** 1 where the team has ever seen the cell. */
    readonly explored: Uint8Array[] = [];
    /** Displayed level per cell for the view team, 0..1. */
    readonly level: Float32Array;
    /** `level` as bytes, the texture's texels (row = z cell). */
    readonly pixels: Uint8Array;
    fade_time: number;
    readonly explored_level: number;
    /** First and last changed row since `clean()`; `dirty_min_row > dirty_max_row` when nothing changed. */
    dirty_min_row: number;
    dirty_max_row: number;

    #view_team: number;
    readonly #fading: Int32Array;
    #fading_count = 0;
    readonly #is_fading: Uint8Array;
    /** The level each fading cell moves to. */
    readonly #target_level: Float32Array;
    /** Disc offsets (dx, dz pairs) by radius. New radii allocate once. */
    readonly #discs = new Map<number, Int32Array>();

    constructor(options: FogGridOptions) {
        const { width, height, bounds, teams } = options;
        if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1 && width <= 8192 && height <= 8192)) {
            throw new RangeError(`FogGrid: grid size must be whole cells in [1, 8192], got ${width}x${height}`);
        }
        const [min_x, min_z, max_x, max_z] = bounds;
        if (!(Number.isFinite(min_x) && Number.isFinite(min_z) && Number.isFinite(max_x) && Number.isFinite(max_z) && max_x > min_x && max_z > min_z)) {
            throw new RangeError(`FogGrid: bounds must be finite [min_x, min_z, max_x, max_z] with max > min, got [${bounds.join(", ")}]`);
        }
        if (!(Number.isInteger(teams) && teams >= 1 && teams <= 16)) throw new RangeError(`FogGrid: teams must be an integer in [1, 16], got ${teams}`);
        if (!(Number.isInteger(options.view_team) && options.view_team >= 0 && options.view_team < teams)) {
            throw new RangeError(`FogGrid: view_team must be a team in [0, ${teams - 1}], got ${options.view_team}`);
        }
        if (!(options.fade_time >= 0 && Number.isFinite(options.fade_time))) {
            throw new RangeError(`FogGrid: fade_time must be finite seconds >= 0, got ${options.fade_time}`);
        }
        if (!(options.explored_level > 0 && options.explored_level < 1)) {
            throw new RangeError(`FogGrid: explored_level must be in (0, 1), got ${options.explored_level}`);
        }
        this.width = width;
        this.height = height;
        this.min_x = min_x;
        this.min_z = min_z;
        this.max_x = max_x;
        this.max_z = max_z;
        this.cell_x = (max_x - min_x) / width;
        this.cell_z = (max_z - min_z) / height;
        this.teams = teams;
        const cells = width * height;
        for (let t = 0; t < teams; t++) {
            this.counts.push(new Uint16Array(cells));
            this.explored.push(new Uint8Array(cells));
        }
        this.level = new Float32Array(cells);
        this.pixels = new Uint8Array(cells);
        this.#fading = new Int32Array(cells);
        this.#is_fading = new Uint8Array(cells);
        this.#target_level = new Float32Array(cells);
        this.fade_time = options.fade_time;
        // as stored in `level`, so that a finished fade compares equal to it
        this.explored_level = Math.fround(options.explored_level);
        this.#view_team = options.view_team;
        this.dirty_min_row = 0;
        this.dirty_max_row = height - 1;
    }

    /** The team whose view `level` shows; changing it fades every cell to that team's state. */
    get view_team(): number {
        return this.#view_team;
    }

    set view_team(team: number) {
        if (!(Number.isInteger(team) && team >= 0 && team < this.teams)) {
            throw new RangeError(`FogGrid.view_team: must be a team in [0, ${this.teams - 1}], got ${team}`);
        }
        if (team === this.#view_team) return;
        this.#view_team = team;
        for (let cell = 0; cell < this.width * this.height; cell++) this.#retarget(cell);
    }

    /** Cells being faded now. */
    get fading_count(): number {
        return this.#fading_count;
    }

    /** The column of world `x` (may be outside 0 .. width - 1). */
    column(x: number): number {
        return Math.floor((x - this.min_x) / this.cell_x);
    }

    /** The row of world `z` (may be outside 0 .. height - 1). */
    row(z: number): number {
        return Math.floor((z - this.min_z) / this.cell_z);
    }

    /** What `team` knows of the cell at world (x, z); outside the grid is hidden. */
    state_at(team: number, x: number, z: number): FogCellState {
        const i = this.column(x);
        const j = this.row(z);
        if (!(i >= 0 && i < this.width && j >= 0 && j < this.height)) return FogCellState.Hidden;
        return this.cell_state(team, i, j);
    }

    /** What `team` knows of cell (i, j). */
    cell_state(team: number, i: number, j: number): FogCellState {
        this.#check_team(team, "cell_state");
        const cell = j * this.width + i;
        if (this.counts[team][cell] > 0) return FogCellState.Visible;
        return this.explored[team][cell] !== 0 ? FogCellState.Explored : FogCellState.Hidden;
    }

    /** Adds one revealer of `team` at cell (ci, cj) seeing `radius` world units. */
    reveal(team: number, ci: number, cj: number, radius: number): void {
        const disc = this.#disc(radius);
        const rz = disc.length >> 1;
        for (let dz = -rz; dz <= rz; dz++) {
            const w = disc[dz + rz];
            this.#span(team, cj + dz, ci - w, ci + w, 1);
        }
    }

    /** Takes back what `reveal` with the same arguments added. */
    conceal(team: number, ci: number, cj: number, radius: number): void {
        const disc = this.#disc(radius);
        const rz = disc.length >> 1;
        for (let dz = -rz; dz <= rz; dz++) {
            const w = disc[dz + rz];
            this.#span(team, cj + dz, ci - w, ci + w, -1);
        }
    }

    /**
     * `conceal(team, i0, j0, radius)` then `reveal(team, i1, j1, radius)`, touching only the cells that differ
     * between the two discs (per row, at most two spans each way): a step of one cell costs the disc's
     * perimeter, not its area. Cells in both discs keep their count and never pass through 0.
     */
    move(team: number, i0: number, j0: number, i1: number, j1: number, radius: number): void {
        const disc = this.#disc(radius);
        const rz = disc.length >> 1;
        if (Math.abs(j1 - j0) > 2 * rz || Math.abs(i1 - i0) > 2 * (disc[rz] + 1)) {
            // apart: nothing shared (reveal first, so no cell of the new disc drops to 0 on the way)
            this.reveal(team, i1, j1, radius);
            this.conceal(team, i0, j0, radius);
            return;
        }
        const first = Math.min(j0, j1) - rz;
        const last = Math.max(j0, j1) + rz;
        for (let j = first; j <= last; j++) {
            const d0 = j - j0;
            const d1 = j - j1;
            const in0 = d0 >= -rz && d0 <= rz;
            const in1 = d1 >= -rz && d1 <= rz;
            const a0 = in0 ? i0 - disc[d0 + rz] : 1;
            const b0 = in0 ? i0 + disc[d0 + rz] : 0;
            const a1 = in1 ? i1 - disc[d1 + rz] : 1;
            const b1 = in1 ? i1 + disc[d1 + rz] : 0;
            // new minus old, then old minus new (an empty span has a > b)
            if (a0 > b0) this.#span(team, j, a1, b1, 1);
            else {
                this.#span(team, j, a1, Math.min(b1, a0 - 1), 1);
                this.#span(team, j, Math.max(a1, b0 + 1), b1, 1);
            }
            if (a1 > b1) this.#span(team, j, a0, b0, -1);
            else {
                this.#span(team, j, a0, Math.min(b0, a1 - 1), -1);
                this.#span(team, j, Math.max(a0, b1 + 1), b0, -1);
            }
        }
    }

    /** Adds `delta` (+1 or -1) to `team`'s counts of row `j`, columns `a ..= b` (clipped to the grid). */
    #span(team: number, j: number, a: number, b: number, delta: number): void {
        if (j < 0 || j >= this.height) return;
        const first = a < 0 ? 0 : a;
        const last = b >= this.width ? this.width - 1 : b;
        if (first > last) return;
        const counts = this.counts[team];
        const shown = team === this.#view_team;
        const row = j * this.width;
        if (delta > 0) {
            const explored = this.explored[team];
            for (let cell = row + first, end = row + last; cell <= end; cell++) {
                if (counts[cell]++ === 0) {
                    explored[cell] = 1;
                    if (shown) this.#retarget(cell);
                }
            }
        } else {
            for (let cell = row + first, end = row + last; cell <= end; cell++) {
                if (--counts[cell] === 0 && shown) this.#retarget(cell);
            }
        }
    }

    /** Advances the fades by `dt` seconds. */
    step(dt: number): void {
        let n = this.#fading_count;
        if (n === 0) return;
        // fields in locals: this loop walks every fading cell each frame
        const fading = this.#fading;
        const is_fading = this.#is_fading;
        const targets = this.#target_level;
        const level = this.level;
        const pixels = this.pixels;
        const delta = this.fade_time > 0 ? dt / this.fade_time : 1;
        const w = this.width;
        let min_row = this.dirty_min_row;
        let max_row = this.dirty_max_row;
        for (let k = 0; k < n; ) {
            const cell = fading[k];
            const target = targets[cell];
            const current = level[cell];
            const next = current < target ? Math.min(target, current + delta) : Math.max(target, current - delta);
            level[cell] = next;
            pixels[cell] = Math.round(next * 255);
            const row = (cell / w) | 0;
            if (row < min_row) min_row = row;
            if (row > max_row) max_row = row;
            if (next === target) {
                is_fading[cell] = 0;
                fading[k] = fading[--n];
            } else k++;
        }
        this.dirty_min_row = min_row;
        this.dirty_max_row = max_row;
        this.#fading_count = n;
    }

    /** Marks every row uploaded. */
    clean(): void {
        this.dirty_min_row = this.height;
        this.dirty_max_row = -1;
    }

    /** Marks every row to upload again (a new texture). */
    dirty_all(): void {
        this.dirty_min_row = 0;
        this.dirty_max_row = this.height - 1;
    }

    /** Everything hidden again for every team, at once (no fade). */
    reset(): void {
        for (let t = 0; t < this.teams; t++) {
            this.counts[t].fill(0);
            this.explored[t].fill(0);
        }
        this.level.fill(0);
        this.pixels.fill(0);
        this.#is_fading.fill(0);
        this.#fading_count = 0;
        this.dirty_all();
    }

    #check_team(team: number, what: string): void {
        if (!(team >= 0 && team < this.teams && Number.isInteger(team))) {
            throw new RangeError(`FogGrid.${what}: team must be in [0, ${this.teams - 1}], got ${team}`);
        }
    }

    #target(cell: number): number {
        const team = this.#view_team;
        if (this.counts[team][cell] > 0) return 1;
        return this.explored[team][cell] !== 0 ? this.explored_level : 0;
    }

    #retarget(cell: number): void {
        const target = this.#target(cell);
        this.#target_level[cell] = target;
        if (this.#is_fading[cell] !== 0) return;
        if (this.level[cell] === target) return;
        this.#is_fading[cell] = 1;
        this.#fading[this.#fading_count++] = cell;
    }

    #dirty(row: number): void {
        if (row < this.dirty_min_row) this.dirty_min_row = row;
        if (row > this.dirty_max_row) this.dirty_max_row = row;
    }

    /**
     * The disc of cells whose centres lie within `radius` of the centre cell's centre, as half widths per row:
     * `disc[dz + rz]` = the largest |dx| in row dz (rows -rz ..= rz, `rz = disc.length >> 1`).
     */
    #disc(radius: number): Int32Array {
        const cached = this.#discs.get(radius);
        if (cached !== undefined) return cached;
        const rz = Math.floor(radius / this.cell_z);
        const disc = new Int32Array(2 * rz + 1);
        const r2 = radius * radius;
        for (let dz = -rz; dz <= rz; dz++) {
            const z = dz * this.cell_z;
            disc[dz + rz] = Math.floor(Math.sqrt(Math.max(0, r2 - z * z)) / this.cell_x);
        }
        // a grid of many distinct radii (animated sight) would grow this without bound
        if (this.#discs.size >= 256) this.#discs.clear();
        this.#discs.set(radius, disc);
        return disc;
    }
}
