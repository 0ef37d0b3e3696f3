/** What a team knows of a cell of the fog-of-war grid. */
export enum FogCellState {
    /** Never seen. */
    Hidden = 0,
    /** Seen before, no revealer of the team sees it now. */
    Explored = 1,
    /** A revealer of the team sees it now. */
    Visible = 2,
}
