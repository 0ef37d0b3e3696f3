import type { GeometryAttribute } from "./GeometryAttribute.js";
import type { GeometryAttributes } from "./Geometry.js";

/**
 * @internal A geometry's `attributes`: each one an accessor, so that putting another attribute object in a slot
 * (or emptying it) tells the geometry at once (`swapped`), and every renderer sees a new version on its next read
 * with no flag set, the culling's kept bounds included. Putting back the object already there changes nothing.
 */
export class GeometryAttributeSet implements GeometryAttributes {
    #position: GeometryAttribute;
    #color: GeometryAttribute | undefined = undefined;
    #normal: GeometryAttribute | undefined = undefined;
    #uv: GeometryAttribute | undefined = undefined;
    #uv1: GeometryAttribute | undefined = undefined;
    #tangent: GeometryAttribute | undefined = undefined;
    #joints: GeometryAttribute | undefined = undefined;
    #weights: GeometryAttribute | undefined = undefined;
    readonly #swapped: () => void;

    constructor(position: GeometryAttribute, swapped: () => void) {
        this.#position = position;
        this.#swapped = swapped;
    }

    get position(): GeometryAttribute {
        return this.#position;
    }
    set position(attribute: GeometryAttribute) {
        if (attribute === this.#position) return;
        this.#position = attribute;
        this.#swapped();
    }

    get color(): GeometryAttribute | undefined {
        return this.#color;
    }
    set color(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#color) return;
        this.#color = attribute;
        this.#swapped();
    }

    get normal(): GeometryAttribute | undefined {
        return this.#normal;
    }
    set normal(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#normal) return;
        this.#normal = attribute;
        this.#swapped();
    }

    get uv(): GeometryAttribute | undefined {
        return this.#uv;
    }
    set uv(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#uv) return;
        this.#uv = attribute;
        this.#swapped();
    }

    get uv1(): GeometryAttribute | undefined {
        return this.#uv1;
    }
    set uv1(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#uv1) return;
        this.#uv1 = attribute;
        this.#swapped();
    }

    get tangent(): GeometryAttribute | undefined {
        return this.#tangent;
    }
    set tangent(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#tangent) return;
        this.#tangent = attribute;
        this.#swapped();
    }

    get joints(): GeometryAttribute | undefined {
        return this.#joints;
    }
    set joints(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#joints) return;
        this.#joints = attribute;
        this.#swapped();
    }

    get weights(): GeometryAttribute | undefined {
        return this.#weights;
    }
    set weights(attribute: GeometryAttribute | undefined) {
        if (attribute === this.#weights) return;
        this.#weights = attribute;
        this.#swapped();
    }
}
