// What scripts/test-isolation.mjs gives each test file's process: an empty model cache and a temporary
// folder of its own, both gone when the process exits, so a run of the suite leaves nothing behind in
// the machine's temporary folder (a test that forgets to clean up included) and its child processes
// write there too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// A test file that leaves a folder behind and asks a child process where its temporary folder is.
const LEAKY = `
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
const dir = mkdtempSync(join(tmpdir(), 'leaky-'));
writeFileSync(join(dir, 'note.txt'), 'left behind');
const childTmp = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
console.log(JSON.stringify({ dir, childTmp, cache: process.env.ENGRAM_MODEL_CACHE }));
`;

test('a test process writes under a temporary folder of its own, removed at exit with what the test left there', () => {
  const outer = mkdtempSync(join(tmpdir(), 'engram-isolation-'));
  try {
    const run = spawnSync(process.execPath, ['--import', './scripts/test-isolation.mjs', '--input-type=module', '-e', LEAKY], {
      cwd: root,
      env: { ...process.env, TMPDIR: outer, ENGRAM_TEST_ISOLATE: '1' },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const { dir, childTmp, cache } = JSON.parse(run.stdout.trim());
    assert.ok(dir.startsWith(outer + '/'), dir);
    assert.notEqual(dirname(dir), outer, 'the leaked folder sits in a folder of the process, not in the shared one');
    assert.equal(childTmp, dirname(dir), 'child processes inherit the same temporary folder');
    assert.ok(cache.startsWith(dirname(dir)), 'the model cache lives there too');
    assert.equal(existsSync(dir), false, 'what the test left behind is gone after exit');
    assert.equal(existsSync(dirname(dir)), false);
  } finally {
    rmSync(outer, { recursive: true, force: true });
  }
});

test('without the switch nothing changes (the scripts run by hand keep the machine temporary folder)', () => {
  const run = spawnSync(process.execPath, ['--import', './scripts/test-isolation.mjs', '-e', 'process.stdout.write(require("node:os").tmpdir())'], {
    cwd: root,
    env: { ...process.env, TMPDIR: '/tmp', ENGRAM_TEST_ISOLATE: '' },
    encoding: 'utf8',
  });
  assert.equal(run.stdout, '/tmp');
});
