import { Camera } from "../scene/Camera.js";

/** One rendered view: what `frame.view` is. Its camera's uniform buffer is bound while a frame records. */
export class RenderView {
    readonly camera: Camera;

    constructor(camera: Camera = new Camera()) {
        this.camera = camera;
    }
}
