// The extension activates for the workspace and contributes its commands.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, EXTENSION_ID, openScene } from './util';

export const COMMANDS = [
  'constraintLens.openInspector',
  'constraintLens.step',
  'constraintLens.runSteps',
  'constraintLens.playPause',
  'constraintLens.reset',
  'constraintLens.goToStep',
  'constraintLens.exportStepData',
  'constraintLens.exportReport',
  'constraintLens.newScene',
];

export default function register(): void {
  suite('activation', () => {
    test('the extension is present and activates on a scene file', async () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      assert.ok(ext, `${EXTENSION_ID} not found`);
      await openScene('valid.scene.json');
      await activateExtension();
      assert.ok(ext.isActive);
    });

    test('every command is registered', async () => {
      await activateExtension();
      const all = new Set(await vscode.commands.getCommands(true));
      const missing = COMMANDS.filter((c) => !all.has(c));
      assert.deepStrictEqual(missing, [], `missing commands: ${missing.join(', ')}`);
    });

    test('the commands are contributed to the palette (package.json)', () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID);
      const contributed = ((ext?.packageJSON?.contributes?.commands ?? []) as { command: string; title: string }[]).map((c) => c.command);
      const missing = COMMANDS.filter((c) => !contributed.includes(c));
      assert.deepStrictEqual(missing, [], `not in contributes.commands: ${missing.join(', ')}`);
    });
  });
}
