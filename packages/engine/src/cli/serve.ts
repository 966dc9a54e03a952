// `engram serve`: runs the console (apps/console) in production mode, building it first if needed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngramError } from '../errors.ts';

export async function serveConsole(opts: { port?: string; host?: string; diaryDir?: string; dataDir?: string; switchDiaryDir?: boolean }): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const consoleDir = resolve(here, '../../../../apps/console');
  if (!existsSync(join(consoleDir, 'package.json'))) throw new EngramError('console-missing', `console app not found at ${consoleDir}`);
  const env = { ...process.env };
  if (opts.port) env.PORT = opts.port;
  if (opts.host) env.HOST = opts.host;
  if (opts.diaryDir) env.ENGRAM_DIARY_DIR = resolve(opts.diaryDir);
  if (opts.dataDir) env.ENGRAM_DATA_DIR = resolve(opts.dataDir);
  if (opts.switchDiaryDir) env.ENGRAM_SWITCH_DIARY_DIR = '1';
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = (script: string) =>
    new Promise<void>((ok, fail) => {
      const child = spawn(npm, ['run', script], { cwd: consoleDir, env, stdio: 'inherit' });
      child.on('exit', (code) => (code === 0 ? ok() : fail(new EngramError('console-failed', `console ${script} exited with ${code}`))));
    });
  if (!existsSync(join(consoleDir, '.next', 'BUILD_ID'))) await run('build');
  await run('start');
}
