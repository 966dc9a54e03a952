// Loaded into every test file's process (scripts/test-all.mjs): each file gets a model cache of its
// own, empty. A test that installs a model (the console's install button, the plugin's first-start
// download) must not turn every later file's `auto` engines semantic, and no test sees the user's cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env.ENGRAM_TEST_ISOLATE_MODEL_CACHE === '1') {
  const cache = mkdtempSync(join(tmpdir(), 'engram-test-model-cache-'));
  process.env.ENGRAM_MODEL_CACHE = cache;
  process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
}
