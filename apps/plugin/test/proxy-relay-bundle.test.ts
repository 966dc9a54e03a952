// The open-relay checks against the packed bundle a user installs (`npm run pack:plugin`): its host
// entry, with its own bundled engine, in the simulated host.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createHost } from '@engram/dsh-sim';
import { makeCorpus, NO_MODEL_INSTALL } from './helpers.ts';
import { assertNoRelay, recorder } from './relay-check.ts';

const root = resolve(import.meta.dirname, '../../..');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

test('the packed bundle’s console proxy refuses every spelling of another host', async (t) => {
  const mod = await import(pathToFileURL(join(root, 'apps/plugin/bundle/lib/host.mjs')).href);
  const consoleSide = await recorder(t, 'console');
  const attacker = await recorder(t, 'attacker');
  const corpus = makeCorpus();
  const host = createHost();
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  await host.load(mod, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, console: { url: consoleSide.url }, ...NO_MODEL_INSTALL });
  await assertNoRelay(await host.listen(), consoleSide, attacker);
});
