import { PerPhaseColorProduct } from "./PerPhaseColorProduct.js";

/**
 * A readable copy of the scene colour as the phase began (PlayCanvas's colour grab, pixi's `importColor`), for
 * effects that sample the scene while writing it (refraction, heat haze, a blur behind glass). Made at
 * AfterLighting, AfterTransparency and BeforePresent, each only if an extension of that phase declares
 * `requires = [SceneColorCopy]`; same size and format as the scene colour it copies.
 */
export class SceneColorCopy extends PerPhaseColorProduct {
    protected override get product_name(): string {
        return "SceneColorCopy";
    }
}
