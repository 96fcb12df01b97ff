// Entry of the e2e suite, loaded by VS Code's extension test runner (extensionTestsPath) inside
// the real extension host. Bundled by scripts/build.mjs with `mocha` and `vscode` external:
// mocha is required at run time from the repo's node_modules.
import Mocha from 'mocha';
import { format } from 'util';
import activation from './activation.test';
import diagnostics from './diagnostics.test';
import follow from './follow.test';
import isolation from './isolation.test';
import inspector from './inspector.test';
import liveUpdate from './liveUpdate.test';
import models from './models.test';
import openTime from './openTime.test';
import mujoco from './mujoco.test';
import panel from './panel.test';
import playRate from './playRate.test';
import quickfix from './quickfix.test';
import reuse from './reuse.test';
import runloop from './runloop.test';
import smoke from './smoke.test';
import stepping from './stepping.test';
import trace from './trace.test';
import truth from './truth.test';
import typing from './typing.test';

/** Prefix of the reporter's lines: the harness prints these and files the workbench's own log. */
export const REPORTER_MARK = '[cl-e2e] ';

export function run(): Promise<void> {
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args: unknown[]) =>
    console.log(
      format(...args)
        .split('\n')
        .map((l) => REPORTER_MARK + l)
        .join('\n'),
    );
  const grep = process.env.CL_E2E_GREP;
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 60_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  // The test files are bundled into this one: define mocha's tdd globals (suite, test, …) on
  // globalThis, as mocha does for each file it loads, then let every file declare its suites.
  mocha.suite.emit('pre-require', globalThis, 'constraint-lens-e2e', mocha);
  for (const register of [smoke, activation, diagnostics, quickfix, liveUpdate, typing, stepping, panel, trace, truth, inspector, openTime, models, isolation, mujoco, runloop, playRate, reuse, follow]) register();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures ? reject(new Error(`${failures} e2e test(s) failed`)) : resolve()));
  });
}
