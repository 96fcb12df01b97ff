// The 3D scene view's figures (its performance targets, below) in headless Chromium: first paint of the view for every
// example in examples/ (target < 300 ms) and for a 1000-link chain, and the orbit frame rate of the
// 1000-link chain (target 60 fps, instanced meshes). Chromium runs WebGL 2 on SwiftShader here (a
// software renderer on the CPU: no GPU on this machine): the figures are SwiftShader's, printed
// with the renderer string so that nobody mistakes them for a GPU's.
//
// Figures per scene (median of --runs fresh views on one page, after a warm-up view):
//   - first paint: `js` = the view's own clock (constructor → the first render call returned),
//     `pixels` = until the renderer has drawn it (a 1-pixel readPixels waits for it),
//     `shown` = until the browser has presented the next frame (two animation frames);
//   - orbit: frames per second with one orbit step and one render per animation frame for 3 s
//     (capped by the display rate, 60 Hz), the main thread's time per frame, and the full cost of
//     a frame including the renderer's work (render + readPixels, 60 frames).
//
// Usage: node --import tsx bench/ui/scene3d.ts [--runs N] [--quick]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeForJson, type PanelModel } from '../../src/protocol';
import { requireChromium } from '../../test/browser/harness';
import { ROOT } from '../../test/browser/fixtures';
import { chainText, exampleModel, modelFromText } from '../../test/browser/scene3d/models';
import { launch3d, openScene, type ScenePage } from '../../test/browser/scene3d/open';

const TARGET = { paintMs: 300, fps: 60 };

interface Paint {
  jsMs: number;
  pixelsMs: number;
  frameMs: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};

async function paint(p: ScenePage, text: string, runs: number): Promise<Paint> {
  const one = (): Promise<Paint & { available: boolean }> => p.page.evaluate((t) => window.cl3d.paint(t), text);
  const warm = await one();
  if (!warm.available) throw new Error('WebGL 2 is not available in this Chromium');
  const all: Paint[] = [];
  for (let i = 0; i < runs; i++) all.push(await one());
  return { jsMs: median(all.map((x) => x.jsMs)), pixelsMs: median(all.map((x) => x.pixelsMs)), frameMs: median(all.map((x) => x.frameMs)) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const i = args.indexOf('--runs');
  const runs = i >= 0 ? Number(args[i + 1]) : quick ? 2 : 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: an integer ≥ 1');
  requireChromium();
  const cores = os.cpus().length;
  console.log(`3D scene view benchmark (headless Chromium, 900×600 CSS px), ${cores} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const examples = fs
    .readdirSync(path.join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.scene.json'))
    .map((f) => f.replace(/\.scene\.json$/, ''))
    .sort();
  process.stdout.write('running the examples (engine)… ');
  const models: [string, PanelModel][] = examples.map((e) => [e, exampleModel(e, quick ? 20 : 100)]);
  const chain = modelFromText(chainText(1000, 10), 'chain1000.scene.json', 10);
  console.log('done');
  const browser = await launch3d();
  try {
    const p = await openScene(browser, { theme: 'dark', width: 900, height: 600 });
    const rows: string[] = [];
    let worst = 0;
    for (const [name, m] of models) {
      const r = await paint(p, encodeForJson(m), runs);
      worst = Math.max(worst, r.frameMs);
      rows.push(`${name.padEnd(34)} ${r.jsMs.toFixed(0).padStart(5)} ${r.pixelsMs.toFixed(0).padStart(7)} ${r.frameMs.toFixed(0).padStart(6)} ms`);
    }
    const c = await paint(p, encodeForJson(chain), runs);
    rows.push(`${'chain (1000 links)'.padEnd(34)} ${c.jsMs.toFixed(0).padStart(5)} ${c.pixelsMs.toFixed(0).padStart(7)} ${c.frameMs.toFixed(0).padStart(6)} ms`);
    const gl = (await p.page.evaluate(() => window.cl3d.info())).gl;
    const orbit = await p.page.evaluate(() => window.cl3d.orbitFps(3000));
    const full = await p.page.evaluate(() => window.cl3d.orbitFinish(60));
    const info = await p.page.evaluate(() => window.cl3d.info());
    await p.close();
    console.log(`renderer: ${gl.renderer} (software: ${gl.software}, MSAA: ${gl.antialias})`);
    console.log(`first paint, median of ${runs}:${' '.repeat(14)}js  pixels  shown`);
    for (const r of rows) console.log(`  ${r}`);
    console.log(`  worst example: ${worst.toFixed(0)} ms shown, target < ${TARGET.paintMs} ms: ${worst < TARGET.paintMs ? 'met' : 'NOT met'}`);
    console.log(
      `orbit, chain of 1000 links (${info.calls} draw calls, ${info.triangles} triangles): ${orbit.fps.toFixed(1)} fps over ${orbit.frames} frames, ` +
        `main thread ${orbit.cpuMs.toFixed(1)} ms/frame; a frame including the renderer's work ${full.msPerFrame.toFixed(1)} ms (${(1000 / full.msPerFrame).toFixed(0)} fps at most); ` +
        `target ${TARGET.fps} fps: ${orbit.fps >= TARGET.fps * 0.95 ? 'met' : 'NOT met'}${gl.software ? ' (on a software renderer)' : ''}`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
