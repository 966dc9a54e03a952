// Run as a child process by worker-embedder-orphan.test.ts: a host that starts the local model in a
// child process (WorkerEmbedder, isolation: process) and is then killed by the test. The worker is
// the real embed-worker.ts, entered through held-embed-worker.fixture.ts (which prints its pid).
//   node --import tsx orphan-host.fixture.ts <modelDir> <starting|ready>
//   starting: the worker holds its start until this host is gone; the test kills the host as soon as
//             the worker says its pid (it has not run a line of embed-worker.ts yet).
//   ready:    the worker has loaded the model and is waiting for requests; this host says "ready"
//             and the test kills it.
import { join } from 'node:path';
import { WorkerEmbedder } from '../../src/semantic/worker-embedder.ts';
import { HOLD_ENV } from './held-embed-worker.fixture.ts';

const [modelDir, moment] = process.argv.slice(2) as [string, 'starting' | 'ready'];
if (moment === 'starting') process.env[HOLD_ENV] = '1'; // the worker's environment is a copy of this one
const entry = join(import.meta.dirname, 'held-embed-worker.fixture.ts');
const loading = WorkerEmbedder.load(modelDir, { model: 'tiny-bert' }, { isolation: 'process', idleMs: 0, entry });
if (moment === 'ready') {
  await loading;
  process.stdout.write('ready\n');
}
// Kept alive (a worker being started or waited on keeps this process up) until the test kills it.
setInterval(() => undefined, 60_000);
