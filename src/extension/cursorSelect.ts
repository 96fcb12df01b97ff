// The editor's cursor selects in the inspector: with the cursor on a body or a constraint of a
// scene file (debounced), the scene's inspector is sent `select`, so its 3D view and heatmaps
// highlight it. Only when the item under the cursor changes, and not when the cursor landed there
// because the inspector revealed that item (PanelManager.selectFromCursor).
import * as vscode from 'vscode';
import { Disposable, toDisposable } from './dispose';
import { itemAtOffset } from './logic/itemAt';
import type { PanelManager } from './panel';
import type { SceneManager } from './scenes';
import { isSceneDocument } from './util';

/** Delay after the last cursor move before the inspector is told. */
const CURSOR_SELECT_DELAY_MS = 200;

export class CursorSelection extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly scenes: SceneManager,
    private readonly panels: PanelManager,
  ) {
    super();
    this._register(
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (!isSceneDocument(e.textEditor.document) || !this.panels.get(e.textEditor.document.uri)) return;
        if (this.timer) clearTimeout(this.timer);
        const editor = e.textEditor;
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.update(editor);
        }, CURSOR_SELECT_DELAY_MS);
      }),
    );
    this._register(toDisposable(() => this.timer && clearTimeout(this.timer)));
  }

  private update(editor: vscode.TextEditor): void {
    const doc = editor.document;
    const s = this.scenes.get(doc.uri);
    const result = s?.result;
    const scene = result?.parse.scene;
    // Offsets of another version of the text would point at the wrong item: wait for its analysis.
    if (doc.isClosed || !s || !result || !scene || s.resultVersion !== doc.version) return;
    this.panels.selectFromCursor(doc.uri, itemAtOffset(scene, result.parse.sourceMap, doc.offsetAt(editor.selection.active)));
  }
}
