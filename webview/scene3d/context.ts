// The WebGL 2 context of the view: multisampled on a GPU; on a software renderer (SwiftShader,
// llvmpipe: no GPU, or a remote desktop) without multisampling, which costs a third of the frame
// there. Returns why it failed instead of throwing.
import { h } from '../dom';

interface GlContext {
  canvas: HTMLCanvasElement;
  gl: WebGL2RenderingContext;
  antialias: boolean;
  /** The unmasked renderer string when the browser tells it (e.g. "ANGLE (…, SwiftShader …)"). */
  renderer: string;
  software: boolean;
}

const ATTRS = { alpha: false, depth: true, stencil: false, powerPreference: 'default' } as const;

const makeCanvas = (): HTMLCanvasElement =>
  h('canvas', { class: 'cl3d-canvas', tabindex: 0, role: 'application', 'aria-roledescription': '3D scene', 'aria-label': '3D scene view' });

function rendererOf(gl: WebGL2RenderingContext): string {
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return String((ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) ?? '');
}

/** `antialias`: true / false, or undefined = on unless the renderer is software. */
export function createContext(antialias?: boolean): GlContext | { reason: string } {
  try {
    let canvas = makeCanvas();
    let gl = canvas.getContext('webgl2', { ...ATTRS, antialias: antialias ?? true });
    if (!gl) return { reason: 'This browser refused to create a WebGL 2 context (disabled, blocklisted GPU or software rendering turned off).' };
    const renderer = rendererOf(gl);
    const software = /swiftshader|llvmpipe|softpipe|software/i.test(renderer);
    let aa = antialias ?? true;
    if (antialias === undefined && software) {
      const plain = makeCanvas().getContext('webgl2', { ...ATTRS, antialias: false });
      if (plain) {
        gl.getExtension('WEBGL_lose_context')?.loseContext();
        gl = plain;
        canvas = plain.canvas as HTMLCanvasElement;
        aa = false;
      }
    }
    return { canvas, gl, antialias: aa, renderer, software };
  } catch (e) {
    return { reason: `WebGL failed to start: ${e instanceof Error ? e.message : String(e)}` };
  }
}
