import { MAX_ENTITIES } from "../MAX_ENTITIES.js";

/**
 * Where an entity is: position (3 floats at `eid * 3`), rotation quaternion x, y, z, w (4 floats at
 * `eid * 4`) and scale (3 floats at `eid * 3`). A bitecs component of typed arrays. Added through
 * `EntityManager.add_component` it starts at the identity (position 0, rotation 0,0,0,1, scale 1).
 */
export const Transform = {
    position: new Float32Array(MAX_ENTITIES * 3),
    rotation: new Float32Array(MAX_ENTITIES * 4),
    scale: new Float32Array(MAX_ENTITIES * 3),
};
