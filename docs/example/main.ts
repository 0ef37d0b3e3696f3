// The guide's game in a browser page with <canvas id="view">: the same start_game, drawing into the canvas,
// with frames driven by requestAnimationFrame through Engine.run.
import { CanvasRenderTarget } from "shade-ts/shade/renderer/target/CanvasRenderTarget.js";
import { start_game } from "./game.js";

const canvas = document.getElementById("view") as HTMLCanvasElement;
const game = await start_game(navigator.gpu, new CanvasRenderTarget(canvas));
game.engine.run();
