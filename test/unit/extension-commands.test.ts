// The command id table (src/extension/commandIds.ts) is the one source of the extension's command
// ids: it equals package.json's contributes.commands, the menus, welcome views and when clauses use
// only its ids and context keys, every panel button maps to a command, and no module spells an id
// itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CommandIds, ContextKeys, PanelCommandIds, ViewIds } from '../../src/extension/commandIds';
import { PANEL_COMMANDS, isWebviewMessage } from '../../src/protocol';

const ROOT = resolve(__dirname, '..', '..');

interface Contributes {
  commands: { command: string; title: string; enablement?: string }[];
  menus: Record<string, { command: string; when?: string }[]>;
  views: Record<string, { id: string }[]>;
  viewsWelcome: { view: string; contents: string }[];
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: Contributes; activationEvents: string[] };
const contributes = pkg.contributes;
const ids = new Set<string>(Object.values(CommandIds));

test('the table equals package.json contributes.commands (same ids, no duplicates)', () => {
  const contributed = contributes.commands.map((c) => c.command);
  assert.equal(new Set(contributed).size, contributed.length, 'contributes.commands has duplicates');
  assert.equal(ids.size, Object.keys(CommandIds).length, 'the table has duplicate ids');
  assert.deepEqual([...contributed].sort(), [...ids].sort());
  for (const c of contributes.commands) assert.ok(c.title.length > 0, `${c.command} has a title`);
});

test('menus and welcome views reference only commands of the table', () => {
  for (const [menu, entries] of Object.entries(contributes.menus)) {
    for (const e of entries) assert.ok(ids.has(e.command), `menus.${menu} references unknown command ${e.command}`);
  }
  for (const w of contributes.viewsWelcome) {
    for (const m of w.contents.matchAll(/\(command:([\w.]+)/g)) assert.ok(ids.has(m[1]), `viewsWelcome links unknown command ${m[1]}`);
  }
});

test('when and enablement clauses use only the context keys and view ids of the table', () => {
  const known = new Set<string>([...Object.values(ContextKeys), ...Object.values(ViewIds)]);
  const clauses = [
    ...contributes.commands.map((c) => c.enablement ?? ''),
    ...Object.values(contributes.menus).flatMap((entries) => entries.map((e) => e.when ?? '')),
  ];
  let seen = 0;
  for (const clause of clauses) {
    for (const m of clause.matchAll(/constraintLens\.\w+/g)) {
      seen++;
      assert.ok(known.has(m[0]), `unknown context key or view id ${m[0]} in "${clause}"`);
    }
  }
  assert.ok(seen > 0, 'the clauses mention the extension’s keys');
  const views = Object.values(contributes.views).flat().map((v) => v.id);
  assert.ok(views.includes(ViewIds.sceneTree));
  assert.ok(pkg.activationEvents.includes(`onWebviewPanel:${ViewIds.inspector}`));
  assert.ok(pkg.activationEvents.includes(`onView:${ViewIds.sceneTree}`));
});

test('every panel button runs a command of the table, and the protocol accepts exactly those buttons', () => {
  assert.deepEqual(Object.keys(PanelCommandIds).sort(), [...PANEL_COMMANDS].sort());
  for (const c of PANEL_COMMANDS) {
    assert.ok(ids.has(PanelCommandIds[c]), `${c} → ${PanelCommandIds[c]}`);
    assert.equal(isWebviewMessage({ type: 'command', command: c }), true);
  }
  assert.equal(PanelCommandIds.step, CommandIds.step);
  assert.equal(PanelCommandIds.run, CommandIds.runSteps);
  assert.equal(isWebviewMessage({ type: 'command', command: 'constraintLens.step' }), false, 'the webview names buttons, not command ids');
  assert.equal(isWebviewMessage({ type: 'command', command: 'exportReport' }), false);
});

test('no source file outside the table spells a command id or context key itself', () => {
  const table = join(ROOT, 'src', 'extension', 'commandIds.ts');
  const spelled = [...ids, ...Object.values(ContextKeys)];
  const files: string[] = [];
  const walk = (p: string): void => {
    if (statSync(p).isDirectory()) for (const f of readdirSync(p)) walk(join(p, f));
    else if (p.endsWith('.ts') && p !== table) files.push(p);
  };
  walk(join(ROOT, 'src'));
  walk(join(ROOT, 'test', 'e2e', 'suite'));
  assert.ok(files.length > 10);
  const offenders: string[] = [];
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const id of spelled) if (text.includes(`'${id}'`) || text.includes(`"${id}"`) || text.includes(`\`${id}\``)) offenders.push(`${relative(ROOT, f)}: ${id}`);
  }
  assert.deepEqual(offenders, []);
});
