// Loaded into every test file's process (scripts/test-all.mjs, ENGRAM_TEST_ISOLATE=1): each file gets
// a temporary folder of its own, and in it an empty model cache. A test that installs a model (the
// console's install button, the plugin's first-start download) must not turn every later file's
// `auto` engines semantic, no test sees the user's cache, and whatever a test (or a process it
// started, which inherits TMPDIR) leaves in its temporary folder goes when the file's process exits:
// a run of the suite leaves nothing behind in the machine's /tmp.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env.ENGRAM_TEST_ISOLATE === '1') {
  const own = mkdtempSync(join(tmpdir(), 'engram-t-'));
  // os.tmpdir() reads TMPDIR on every call, and child processes inherit it.
  process.env.TMPDIR = own;
  const cache = join(own, 'model-cache');
  mkdirSync(cache);
  process.env.ENGRAM_MODEL_CACHE = cache;
  process.on('exit', () => rmSync(own, { recursive: true, force: true }));
}
