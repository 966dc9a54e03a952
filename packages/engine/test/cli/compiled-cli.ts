// The compiled CLI the tests run, brought up to date with the sources only when it is not.
// Test files used to rebuild it unconditionally before their tests: a build swaps dist/cli out and
// in (two renames), and a command another test file started in between found no compiled CLI (it ran
// the source, with a note on stderr) while a copy of dist/ taken then missed files. `engram` itself
// rebuilds a stale build before it runs, so asking it for its version is the check and the rebuild.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
export const compiledBin = join(engineDir, 'bin/engram.js');

const versionRun = () => spawnSync(process.execPath, [compiledBin, '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 120_000 });

export function ensureCompiledCli(): void {
  let r = versionRun();
  if (r.status === 0 && /compiled CLI is missing/.test(r.stderr)) {
    execFileSync(process.execPath, [join(engineDir, 'scripts/build-cli.mjs'), '--quiet'], { cwd: join(engineDir, '../..'), stdio: 'inherit' });
    r = versionRun();
  }
  if (r.status !== 0 || r.stderr !== '') throw new Error(`the compiled CLI does not run cleanly (exit ${r.status}): ${r.stderr}`);
}
