// The extension activates for the workspace and contributes its commands.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, EXTENSION_ID, openScene } from './util';

/** Every command of the extension's id table. */
export const COMMANDS: string[] = Object.values(CommandIds);

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
