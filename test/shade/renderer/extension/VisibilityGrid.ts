// The seed's VisibilityGrid lives with the rest of the seed's code, pasted as it stands.
export { VisibilityGrid } from "../../../seed/seed_code.js";
