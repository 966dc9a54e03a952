// The console's production build as `npm start` runs it: Next's own output is kept back (a page of
// route tables means nothing to someone starting the console) and a progress line says what is
// happening and how long it usually takes instead. The output is shown when the build fails, or
// when it warns (a warning is a defect to report: the build of a clean checkout has none).
import { spawn } from 'node:child_process';

export const BUILD_NOTE = '正在构建控制台（next build）：首次启动或更新后做一次，通常不到 2 分钟 · building the console once, usually under 2 minutes';

const seconds = (ms) => `${Math.round(ms / 1000)} s`;

/**
 * Runs `command args` and reports progress on `out`: on a terminal one line that counts the seconds,
 * elsewhere (a log, CI) one line before and one after. Resolves with the exit code and the output.
 */
export function buildWithProgress({ command, args, cwd, env, out = process.stdout, tty = Boolean(out.isTTY), tickMs = 1000 }) {
  const started = Date.now();
  out.write(tty ? `${BUILD_NOTE}… 0 s` : `${BUILD_NOTE}…\n`);
  const ticker = tty ? setInterval(() => out.write(`\r${BUILD_NOTE}… ${seconds(Date.now() - started)}`), tickMs) : null;
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    // A stopped start stops its build too (an orphaned `next build` holds Next's build lock).
    const stop = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    let done = false;
    const finish = (code, { error, signal } = {}) => {
      if (done) return; // a child that failed to spawn reports 'error' and then 'close'
      done = true;
      for (const s of ['SIGINT', 'SIGTERM']) process.off(s, stop);
      if (ticker) clearInterval(ticker);
      const ms = Date.now() - started;
      if (tty) out.write('\n');
      if (code === 0) out.write(`控制台已构建，用时 ${seconds(ms)} · built in ${seconds(ms)}\n`);
      else if (signal) out.write(`控制台构建已停止（${signal}）· the build was stopped\n`);
      else out.write(`控制台构建失败（退出码 ${code}）· the build failed:\n${output}${error ? `${error.message}\n` : ''}`);
      if (code === 0 && /\bwarning\b/i.test(output)) out.write(`next build 报告了警告，请把下面的输出报告给开发者 · the build warned, please report:\n${output}`);
      resolve({ code, ms, output });
    };
    child.on('error', (error) => finish(1, { error }));
    child.on('close', (code, signal) => finish(code ?? 1, { signal }));
  });
}
