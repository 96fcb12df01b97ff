// Stepping a scene through the commands (as from the palette, with the scene's URI).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, LensApi, openScene } from './util';

export default function register(): void {
  suite('stepping commands', () => {
    let api: LensApi;
    let uri: vscode.Uri;

    suiteSetup(async () => {
      api = await activateExtension();
      assert.ok(api && typeof api.currentStep === 'function', 'activate() must return the test API with currentStep(uri)');
      ({ uri } = await openScene('valid.scene.json'));
      await vscode.commands.executeCommand('constraintLens.reset', uri);
    });

    test('step thrice → current step 3', async () => {
      for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('constraintLens.step', uri);
      assert.strictEqual(api.currentStep!(uri.toString()), 3);
      const recs = api.records?.(uri.toString());
      if (recs) assert.strictEqual(recs.length, 3);
    });

    test('runSteps with a count', async () => {
      await vscode.commands.executeCommand('constraintLens.runSteps', uri, 10);
      assert.strictEqual(api.currentStep!(uri.toString()), 13);
    });

    test('reset → step 0', async () => {
      await vscode.commands.executeCommand('constraintLens.reset', uri);
      assert.strictEqual(api.currentStep!(uri.toString()) ?? 0, 0);
    });
  });
}
