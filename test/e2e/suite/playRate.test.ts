// Play "as fast as possible" in the real extension host, on the chain with its inspector open: the
// steps per second the host's play loop achieves with every view (status bar, CodeLens, tree, the
// panel's feed) following it, against the engine alone in the same process (Simulation.step in a
// loop). Logged, not asserted on time (the machine is shared); Play must step and Pause stop it.
// With CL_E2E_PROFILE set, a CPU profile of the extension host over the Play is written to
// test-results/e2e/play-host.cpuprofile (summarise it with test/e2e/tools/cpuprofile.mjs).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { inspectScene, Simulation } from '../../../src/engine';
import { HostProfiler } from './typing.test';
import { activateExtension, openScene, sleep, waitFor, type LensApi } from './util';

const PLAY_MS = 2000;

export default function register(): void {
  suite('Play as fast as possible', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
    });
    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('the chain with its inspector open: the host’s steps per second against the engine alone (logged)', async function () {
      this.timeout(60_000);
      const { uri, doc } = await openScene('chain.scene.json');
      const key = uri.toString();
      // the engine alone, in this process, over the same steps (warmed up first)
      const ins = inspectScene(doc.getText());
      let engineRate = 0;
      for (let r = 0; r < 3; r++) {
        const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
        const t = performance.now();
        sim.step(800);
        engineRate = Math.max(engineRate, 800 / ((performance.now() - t) / 1000));
      }
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector to say ready', () => api.panelFor(key)?.lastMessageFromWebview !== undefined, 30_000, 100);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      assert.ok(await api.receiveFromWebview(key, { type: 'playSpeed', speed: 'max' }));
      const profiler = process.env.CL_E2E_PROFILE ? new HostProfiler('play-host') : undefined;
      await profiler?.start();
      const t0 = performance.now();
      await vscode.commands.executeCommand(CommandIds.playPause, uri);
      // until the run ends by itself (the chain blows up near step 1100) or PLAY_MS
      while (api.isRunning(key) && performance.now() - t0 < PLAY_MS) await sleep(20);
      const ms = performance.now() - t0;
      const steps = api.currentStep(key);
      if (api.isRunning(key)) await vscode.commands.executeCommand(CommandIds.playPause, uri);
      await api.whenIdle(key);
      const file = await profiler?.stop([[-Infinity, Infinity]]);
      const after = api.currentStep(key);
      await sleep(300);
      console.log(`[cl-e2e] play as fast as possible, chain: ${steps} steps in ${ms.toFixed(0)} ms → ${(steps / (ms / 1000)).toFixed(0)} steps/s in the host with the views following; the engine alone ${engineRate.toFixed(0)} steps/s${file ? `; profile ${file}` : ''}`);
      assert.ok(steps > 0, 'Play took steps');
      assert.strictEqual(api.currentStep(key), after, 'Pause (or the blow-up) stopped the run');
    });
  });
}
