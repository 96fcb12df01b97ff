// Harness smoke test: the suite runs in a real VS Code extension host with the fixture workspace.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { wsUri } from './util';

export default function register(): void {
  suite('harness smoke', () => {
    test('a real VS Code extension host', () => {
      assert.match(vscode.version, /^1\.\d+\.\d+/);
      assert.ok(typeof vscode.commands.executeCommand === 'function');
    });

    test('the fixture workspace is open', async () => {
      const stat = await vscode.workspace.fs.stat(wsUri('valid.scene.json'));
      assert.strictEqual(stat.type, vscode.FileType.File);
    });
  });
}
