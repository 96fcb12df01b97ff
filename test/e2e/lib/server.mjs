// Starts code-server on 127.0.0.1 (free port) in its own process group, state under .e2e/.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, openSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** User settings of the test profile. */
export function userSettings(theme) {
  return {
    'workbench.colorTheme': theme,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'chat.disableAIFeatures': true,
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    // the workspaces live inside the repo's .e2e/: keep the git extension out of it
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
    'files.autoSave': 'off',
    'editor.minimap.enabled': false,
    'window.title': '${activeEditorShort} — Constraint Lens e2e',
  };
}

export function writeUserSettings(userDataDir, theme) {
  const dir = join(userDataDir, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(userSettings(theme), null, 2) + '\n');
}

/**
 * Starts code-server. Returns { port, url, stop(), logFile, userDataDir, extensionsDir }.
 * `env` is added to code-server's environment (the remote extension host inherits it).
 */
export async function startCodeServer(p, { name = 'server', theme = 'Dark 2026', env = {}, log = console.log } = {}) {
  const base = join(p.e2e, name);
  rmSync(base, { recursive: true, force: true });
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  const xdg = join(base, 'xdg');
  for (const d of [userDataDir, extensionsDir, join(xdg, 'config'), join(xdg, 'data'), join(xdg, 'cache'), p.logs]) mkdirSync(d, { recursive: true });
  writeUserSettings(userDataDir, theme);
  const port = await freePort();
  const configFile = join(xdg, 'cs.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const logFile = join(p.logs, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const args = [
    p.csEntry,
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--vscode-option', 'enable-smoke-test-driver',
  ];
  const child = spawn(p.node24, args, {
    detached: true, // own session + process group (setsid): helpers are killed with the group
    stdio: ['ignore', fd, fd],
    env: {
      ...process.env,
      ...env,
      XDG_CONFIG_HOME: join(xdg, 'config'),
      XDG_DATA_HOME: join(xdg, 'data'),
      XDG_CACHE_HOME: join(xdg, 'cache'),
      PATH: `${join(p.n24, 'bin')}:${process.env.PATH}`,
    },
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const pgid = child.pid;
  const stop = () => {
    try {
      process.kill(-pgid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    // make sure nothing of the group survives
    spawnSync('sleep', ['0.5']);
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early; log ${logFile}:\n${tail(logFile)}`);
    try {
      const r = await globalThis.fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`code-server did not answer /healthz within 60 s; log ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`code-server up on ${url} (pid ${pgid}, log ${logFile})`);
  return { port, host: `127.0.0.1:${port}`, url, stop, logFile, userDataDir, extensionsDir, pid: pgid };
}

export function installVsix(p, server, vsix) {
  const r = spawnSync(p.node24, [p.csEntry, '--user-data-dir', server.userDataDir, '--extensions-dir', server.extensionsDir, '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(p.n24, 'bin')}:${process.env.PATH}` },
  });
  if (r.status !== 0) throw new Error(`--install-extension failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return (r.stdout || '').trim();
}

export function tail(file, n = 40) {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
}
