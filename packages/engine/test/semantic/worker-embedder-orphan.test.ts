// The local model's child process when its host goes without a word (killed, or exited abruptly):
// the child must end, and quietly. It logged `Error [ERR_IPC_CHANNEL_CLOSED]: Channel closed` (an
// uncaught error from process.send) into the host's stderr, which is the child's: a host killed while
// the child was still starting left it to load the model and then report "ready" to nobody.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildTinyModel } from './tiny-onnx.ts';

const HOST = join(import.meta.dirname, 'orphan-host.fixture.ts');
/**
 * How long the test waits for the orphaned worker to end before it calls it lingering and kills it.
 * Not a measure of speed: a worker that ends does so in well under a second; this only keeps a
 * lingering one from hanging the run.
 */
const LINGER_LIMIT_MS = 60_000;

let root: string;
let modelDir: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'engram-worker-orphan-'));
  modelDir = buildTinyModel(join(root, 'tiny-bert'), { dims: 16 });
});
after(() => rmSync(root, { recursive: true, force: true }));

/**
 * Starts the host fixture, kills it (SIGKILL) at `moment`, and waits until its worker has ended too:
 * the worker holds the host's stdout and stderr (inherited), so they close only when both are gone.
 */
function killHost(moment: 'starting' | 'ready'): Promise<{ stderr: string; workerPid: number; workerExit: string | null; lingered: boolean }> {
  return new Promise((resolvePromise, reject) => {
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, modelDir, moment], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let workerPid = 0;
    let lingerTimer: NodeJS.Timeout | undefined;
    host.on('error', reject);
    host.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    host.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
      workerPid ||= Number(/^worker (\d+)$/m.exec(stdout)?.[1] ?? 0);
      const due = moment === 'starting' ? workerPid > 0 : /^ready$/m.test(stdout);
      if (due && host.exitCode === null && host.signalCode === null) host.kill('SIGKILL');
    });
    host.on('exit', () => {
      lingerTimer = setTimeout(() => {
        try {
          process.kill(workerPid, 'SIGKILL');
        } catch {
          // already gone
        }
        resolvePromise({ stderr, workerPid, workerExit: null, lingered: true });
      }, LINGER_LIMIT_MS);
    });
    host.on('close', () => {
      clearTimeout(lingerTimer);
      resolvePromise({ stderr, workerPid, workerExit: /^worker exit (.*)$/m.exec(stdout)?.[1] ?? null, lingered: false });
    });
  });
}

test('a worker whose host was killed while it was starting ends quietly, before loading the model for nobody', async () => {
  const { stderr, workerPid, workerExit, lingered } = await killHost('starting');
  assert.ok(workerPid > 0, `the worker started: ${stderr}`);
  assert.equal(lingered, false, 'the worker ended');
  assert.doesNotMatch(stderr, /ERR_IPC_CHANNEL_CLOSED/);
  assert.equal(stderr, '', 'nothing on stderr');
  assert.equal(workerExit, '0', 'exit code 0, the ONNX runtime never loaded');
});

test('a worker whose host was killed once the model was loaded ends, quietly', async () => {
  const { stderr, workerPid, workerExit, lingered } = await killHost('ready');
  assert.ok(workerPid > 0, `the worker started: ${stderr}`);
  assert.equal(lingered, false, 'the worker ended');
  assert.doesNotMatch(stderr, /ERR_IPC_CHANNEL_CLOSED/);
  assert.equal(stderr, '', 'nothing on stderr');
  assert.equal(workerExit, '0 with the model runtime loaded', 'exit code 0 (and the model had been loaded: the host was killed at the moment meant)');
});
