import { PerPhaseColorProduct } from "./PerPhaseColorProduct.js";

/**
 * The scene colour as the phase began, downsampled to half size (ceil(width / 2) x ceil(height / 2), each
 * texel the box average of its 2x2 source texels; an odd last row or column averages the texels it has), for
 * blurs, bloom and screen-space effects that need not run at full size. Made at AfterLighting,
 * AfterTransparency and BeforePresent, each only if an extension of that phase declares
 * `requires = [HalfResolutionColor]`; same format as the scene colour.
 */
export class HalfResolutionColor extends PerPhaseColorProduct {
    protected override get product_name(): string {
        return "HalfResolutionColor";
    }
}
