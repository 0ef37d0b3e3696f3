// The seed's MarkerExtension lives with the rest of the seed's code, pasted as it stands.
export { MarkerExtension } from "../../../seed/seed_code.js";
