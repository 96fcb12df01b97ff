// Installed package versions, read from each package's own package.json (for the printed table
// and the JSON: a figure is only meaningful with the exact version that produced it).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The version of an installed package, or undefined when it cannot be found. */
export function packageVersion(name: string): string | undefined {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(name));
  } catch {
    return undefined;
  }
  for (let k = 0; k < 6; k++) {
    const f = path.join(dir, 'package.json');
    if (fs.existsSync(f)) {
      try {
        const j = JSON.parse(fs.readFileSync(f, 'utf8')) as { name?: string; version?: string };
        if (j.name === name) return j.version;
      } catch {
        // not a package.json we can read: keep looking upwards
      }
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
