// One step in every view of an engine run, in the real VS Code, where the panel's messages and the
// host's steps race: a following panel's late snapshot request (the end it knew) never pins the
// status bar and CodeLens behind the run, after a Step from the CodeLens or Play started from a panel
// left on an earlier step; a panel closed lets go of the step chosen in it. Then how long VS Code takes to show a Step in the CodeLens, and whether it
// shows a run's steps at all while the run goes on: a second provider on the same document records
// when VS Code asks for the lenses (after its debounce) and resolves them (when the titles of the
// line are redrawn). The times are logged for the closing note; only their existence is asserted.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, harnessScreenshot, LensApi, openScene, sleep, waitFor } from './util';

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '');
}

/** Open the scene's inspector; resolves when its webview applied the model. */
async function openPanel(api: LensApi, uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  await vscode.commands.executeCommand(CommandIds.openInspector, uri);
  await waitFor(`the panel to apply its model (${JSON.stringify(api.panelFor(key)?.postedTypes)})`, () => {
    const p = api.panelFor(key);
    return p?.postedTypes.includes('model') && p.lastMessageFromWebview?.type === 'ack';
  }, 60_000);
}

/** The step the status bar names (the scene's editor must be the active one). */
const statusStep = (api: LensApi): number => Number(/ · step (\d+)$/.exec(api.statusText())?.[1] ?? -1);

/** A CodeLens provider beside ours on the same file: when VS Code asks for lenses and resolves them. */
class LensSpy implements vscode.CodeLensProvider {
  readonly provided: number[] = [];
  readonly resolved: number[] = [];
  provideCodeLenses(): vscode.CodeLens[] {
    this.provided.push(Date.now());
    // no command: VS Code resolves it with the line's other lenses, right before it redraws their titles
    return [new vscode.CodeLens(new vscode.Range(0, 0, 0, 0))];
  }
  resolveCodeLens(lens: vscode.CodeLens): vscode.CodeLens {
    this.resolved.push(Date.now());
    lens.command = { title: 'lens spy', command: '' };
    return lens;
  }
}

export default function register(): void {
  suite('one step in every view of an engine run', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('a Step from the CodeLens: the following panel’s late request for the end it knew leaves the views on the new step', async function () {
      this.timeout(120_000);
      const { uri, doc } = await openScene('pendulum.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await openPanel(api, uri);
      await vscode.commands.executeCommand(CommandIds.runSteps, uri, 3);
      await api.whenIdle(key);
      // the panel left on step 1 (Go to Step moves it there; every view follows)
      await vscode.commands.executeCommand(CommandIds.goToStep, uri, 1);
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
      await waitFor(`the status bar on step 1 (have "${api.statusText()}")`, () => statusStep(api) === 1, 10_000);
      // the CodeLens's Step: step 4, and every view on it
      await vscode.commands.executeCommand(CommandIds.step, uri);
      assert.strictEqual(api.currentStep(key), 4);
      await waitFor(`the status bar on step 4 (have "${api.statusText()}")`, () => statusStep(api) === 4, 10_000);
      // the panel goes there too: the records of step 4, then step 4 as a step to go to (the panel
      // clamps a step to the records it has); the machine is loaded, the webview slow to acknowledge
      await waitFor(`the panel's feed to go quiet (${JSON.stringify(api.panelFor(key)?.postedTypes.slice(-6))})`, () => api.panelFor(key)?.flow?.waiting === false, 60_000);
      assert.deepStrictEqual(api.panelFor(key)?.postedTypes.filter((t) => t === 'historyAppend' || t === 'snapshot').slice(-2), ['historyAppend', 'snapshot'], 'the records of step 4, then step 4 to go to');
      await sleep(1500); // VS Code redraws the CodeLens after two debounces
      await harnessScreenshot('follow-codelens-step');
      // the panel, following the run again, asks for the end it knew before the Step reached it
      assert.ok(await api.receiveFromWebview(key, { type: 'requestSnapshot', step: 3, follow: true }));
      await sleep(300);
      assert.strictEqual(statusStep(api), 4, `the status bar went back to the end the panel knew: "${api.statusText()}"`);
      await waitFor('a CodeLens on step 4', async () => (await lensTitles(uri)).some((t) => / · step 4\b/.test(t)), 10_000);
      // a step the user chose in the panel is every view's step
      assert.ok(await api.receiveFromWebview(key, { type: 'requestSnapshot', step: 2 }));
      await waitFor(`the status bar on the chosen step 2 (have "${api.statusText()}")`, () => statusStep(api) === 2, 10_000);
      // the panel closed: no inspector shows step 2 now, every view is on the run's step 4
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor('the panel closed', () => api.panelFor(key) === undefined, 10_000);
      await vscode.window.showTextDocument(doc, { preview: false });
      await waitFor(`the status bar back on the run's step 4 after the panel closed (have "${api.statusText()}")`, () => statusStep(api) === 4, 10_000);
      await waitFor('a CodeLens on step 4 after the panel closed', async () => (await lensTitles(uri)).some((t) => / · step 4\b/.test(t)), 10_000);
    });

    test('Play from a panel left on an earlier step: the status bar and CodeLens follow the run to its end', async function () {
      this.timeout(120_000);
      const { uri, doc } = await openScene('pendulum.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await openPanel(api, uri);
      await vscode.commands.executeCommand(CommandIds.runSteps, uri, 20);
      await api.whenIdle(key);
      await vscode.commands.executeCommand(CommandIds.goToStep, uri, 5);
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
      await waitFor(`the status bar on step 5 (have "${api.statusText()}")`, () => statusStep(api) === 5, 10_000);
      // the panel on step 5: the host's snapshot of it applied (as a user sees it before pressing Play)
      await waitFor('the panel to apply step 5', () => {
        const p = api.panelFor(key);
        return p?.postedTypes.at(-1) === 'snapshot' && p.flow?.waiting === false;
      }, 10_000);
      // Play: the panel, not following, goes to the run's end and asks for it, saying it follows
      await vscode.commands.executeCommand(CommandIds.playPause, uri);
      await waitFor('the run to pass step 40', () => api.currentStep(key) > 40, 20_000);
      await vscode.commands.executeCommand(CommandIds.playPause, uri);
      await api.whenIdle(key);
      const end = api.currentStep(key);
      await waitFor(`the status bar on the run's end ${end} (have "${api.statusText()}")`, () => statusStep(api) === end, 10_000);
      await waitFor(`a CodeLens on step ${end}`, async () => (await lensTitles(uri)).some((t) => t.includes(` · step ${end}`)), 10_000);
      await waitFor("the panel's feed to go quiet", () => api.panelFor(key)?.flow?.waiting === false, 60_000);
      await sleep(1500);
      await harnessScreenshot('follow-play');
    });

    test('the CodeLens after a Step and during Play: VS Code asks for it after its debounce (times logged)', async function () {
      this.timeout(120_000);
      const { uri, doc } = await openScene('pendulum.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
      const spy = new LensSpy();
      const reg = vscode.languages.registerCodeLensProvider({ pattern: '**/pendulum.scene.json' }, spy);
      try {
        await waitFor('VS Code to resolve the spy’s lens', () => spy.resolved.length > 0, 15_000);
        await sleep(1000);
        const provide: number[] = [];
        const resolve: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t0 = Date.now();
          await vscode.commands.executeCommand(CommandIds.step, uri);
          const p = await waitFor('VS Code to ask for the lenses after a Step', () => spy.provided.find((t) => t >= t0), 10_000, 5);
          const r = await waitFor('VS Code to resolve them', () => spy.resolved.find((t) => t >= p), 10_000, 5);
          provide.push(p - t0);
          resolve.push(r - t0);
          await sleep(800);
        }
        const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        console.log(`CodeLens after a Step: asked for after ${provide.join(', ')} ms (median ${median(provide)}), titles redrawn (resolved) after ${resolve.join(', ')} ms (median ${median(resolve)})`);
        // Play for 3 s: how often VS Code asks for the lenses while the run goes on
        const before = spy.provided.length;
        const t0 = Date.now();
        await vscode.commands.executeCommand(CommandIds.playPause, uri);
        await sleep(3000);
        const during = spy.provided.filter((t) => t > t0).length;
        const steps0 = api.currentStep(key);
        await vscode.commands.executeCommand(CommandIds.playPause, uri);
        await api.whenIdle(key);
        console.log(`CodeLens during 3 s of Play (${steps0} steps): asked for ${during} times (${spy.provided.length - before} until paused)`);
        assert.ok(during >= 1, 'VS Code asked for the lenses at least once while Play ran (their step moves with the run)');
      } finally {
        reg.dispose();
      }
    });
  });
}
