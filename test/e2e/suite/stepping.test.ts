// Stepping a scene through the commands (as from the palette, with the scene's URI).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, LensApi, openScene } from './util';

export default function register(): void {
  suite('stepping commands', () => {
    let api: LensApi;
    let uri: vscode.Uri;
    let key: string;

    suiteSetup(async () => {
      api = await activateExtension();
      ({ uri } = await openScene('valid.scene.json'));
      key = uri.toString();
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      assert.strictEqual(api.currentStep(key), 0);
    });

    test('step thrice → current step 3', async () => {
      for (let i = 0; i < 3; i++) await vscode.commands.executeCommand(CommandIds.step, uri);
      assert.strictEqual(api.currentStep(key), 3);
      assert.strictEqual(api.records(key), 3);
    });

    test('runSteps with a count', async () => {
      await vscode.commands.executeCommand(CommandIds.runSteps, uri, 10);
      await api.whenIdle(key);
      assert.strictEqual(api.currentStep(key), 13);
      assert.strictEqual(api.isRunning(key), false);
    });

    test('the URI may be given as a string', async () => {
      await vscode.commands.executeCommand(CommandIds.step, key);
      assert.strictEqual(api.currentStep(key), 14);
    });

    test('reset → step 0', async () => {
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      assert.strictEqual(api.currentStep(key), 0);
    });
  });
}
