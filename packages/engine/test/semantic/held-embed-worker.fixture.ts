// The embedding worker's entry for worker-embedder-orphan.test.ts: says its pid on stdout (the host's,
// inherited), then runs the real src/semantic/embed-worker.ts, and says how it exited (its code, and
// whether it had loaded the ONNX runtime). With HOLD_ENV set it first waits until the host that forked
// it is gone, so the worker starts as an orphan by construction, not by a race: its IPC channel has
// closed before embed-worker.ts runs its first line.
import { writeSync } from 'node:fs';

export const HOLD_ENV = 'ENGRAM_TEST_HOLD_WORKER_UNTIL_ORPHANED';

/** How long the hold waits for the host to go at most, so a test that died first leaves no process behind. */
const HOLD_LIMIT_MS = 60_000;

if (process.send) {
  writeSync(1, `worker ${process.pid}\n`);
  process.on('exit', (code) => {
    // The native library is per process (as main-thread-runtime.fixture.ts checks it).
    const runtimeLoaded = (process.report.getReport() as { sharedObjects: string[] }).sharedObjects.some((s) => /onnxruntime/.test(s));
    writeSync(1, `worker exit ${code}${runtimeLoaded ? ' with the model runtime loaded' : ''}\n`);
  });
  if (process.env[HOLD_ENV] === '1') {
    // Until node has seen the channel close (the host's end of it went with the host): the event loop
    // turns meanwhile, so its 'disconnect' is emitted now, before embed-worker.ts can listen for it.
    const since = Date.now();
    while (process.connected && Date.now() - since < HOLD_LIMIT_MS) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await import('../../src/semantic/embed-worker.ts');
}
