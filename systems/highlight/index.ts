export { HighlightSystem } from "./HighlightSystem.js";
export { HighlightExtension } from "./HighlightExtension.js";
export { Highlight } from "./Highlight.js";
export { HighlightDescriptor } from "./HighlightDescriptor.js";
