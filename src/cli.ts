// constraint-lens: the headless command line. Same engine, same answers as the extension.
//   constraint-lens inspect SCENE [--json]
//   constraint-lens simulate SCENE [--steps N] [--json] [--csv FILE]
//   constraint-lens report SCENE [--steps N] [-o FILE]
// Exit status: 0 no errors (warnings allowed), 1 the scene has errors, 2 usage or I/O error.
// The commands live in src/cli/; docs/cli.md documents them, their output and exit status.
import { USAGE } from './cli/args';
import { printError } from './cli/io';
import { IoError, run, UsageError } from './cli/run';

async function main(): Promise<void> {
  // `constraint-lens inspect … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      printError(`constraint-lens: ${e.message}\n\n${USAGE}`);
      code = 2;
    } else if (e instanceof IoError) {
      printError(`constraint-lens: ${e.message}`);
      code = 2;
    } else {
      printError(`constraint-lens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      code = 2;
    }
  }
  process.exitCode = code;
}

void main();
