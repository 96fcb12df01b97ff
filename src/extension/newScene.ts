// "New Scene": an untitled, commented example scene named `*.scene.json`, so that the schema,
// diagnostics, CodeLens and snippets apply at once; saving asks where to put it.
import * as vscode from 'vscode';

const EXAMPLE_SCENE = `// A Constraint Lens scene (*.scene.json). Units: SI (m, kg, s); z is up.
// Comments and trailing commas are allowed. Hover a field for its documentation; diagnostics,
// the CodeLens above and the inspector (Constraint Lens: Open Inspector) update as you type.
// Snippets: type "scene-body", "scene-distance", "scene-hinge", … inside the arrays.
{
  "name": "Double pendulum",
  "gravity": [0, 0, -9.81],
  "solver": {
    "dt": 0.01,        // time step (s)
    "steps": 200,      // default of "Run N Steps"
    "alpha": 5.0,      // constraint stabilisation gains (see "stabilization")
    "beta": 1.0,
    "stabilization": "aerislab"
  },
  "bodies": [
    // mass (kg), body-frame inertia diagonal (kg·m²), position (m); orientation defaults to [0, 0, 0, 1]
    { "name": "Upper", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [1, 0, 2] },
    { "name": "Lower", "mass": 0.5, "inertia": [0.005, 0.005, 0.005], "position": [2, 0, 2] }
  ],
  "constraints": [
    // "world" is the fixed world frame. A distance constraint's length defaults to the initial distance.
    { "name": "arm1", "type": "distance", "bodyA": "world", "bodyB": "Upper", "anchorA": [0, 0, 2], "anchorB": [0, 0, 0] },
    { "name": "arm2", "type": "distance", "bodyA": "Upper", "bodyB": "Lower" }
  ]
}
`;

/** Open an untitled `new-N.scene.json` with the example (in the first workspace folder, if any). */
export async function newScene(): Promise<vscode.TextEditor> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.path));
  let uri: vscode.Uri | undefined;
  for (let i = 1; i < 1000 && !uri; i++) {
    const name = i === 1 ? 'new.scene.json' : `new-${i}.scene.json`;
    const candidate = folder ? vscode.Uri.joinPath(folder, name) : vscode.Uri.file(`/${name}`);
    if (open.has(candidate.path)) continue;
    if (folder && (await exists(candidate))) continue;
    uri = candidate;
  }
  const untitled = (uri ?? vscode.Uri.file('/new.scene.json')).with({ scheme: 'untitled' });
  const doc = await vscode.workspace.openTextDocument(untitled);
  const editor = await vscode.window.showTextDocument(doc);
  if (doc.getText().length === 0) {
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), EXAMPLE_SCENE));
  }
  editor.selection = new vscode.Selection(5, 11, 5, 26);
  return editor;
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
