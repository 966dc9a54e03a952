// `engram status` says so when this process tokenizes differently from the index it reads (#13 item 11):
// an index built with 1-/2-grams read by a jieba process (or the reverse) misses memories silently.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
const engram = (args: string[], env: Record<string, string>) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('status text names the tokenizer the index was built with and warns on a mismatch', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const built = engram(['index', ...common], { HOME: dirs.root, ENGRAM_TOKENIZER: 'gram' });
  assert.equal(built.code, 0, built.stderr);

  const same = engram(['status', ...common], { HOME: dirs.root, ENGRAM_TOKENIZER: 'gram' });
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /index built with gram/);
  assert.doesNotMatch(same.stdout, /mismatch/i);

  const other = engram(['status', ...common], { HOME: dirs.root, ENGRAM_TOKENIZER: 'jieba' });
  assert.equal(other.code, 0, other.stderr);
  assert.match(other.stdout, /index built with gram/);
  assert.match(other.stdout, /tokenizer mismatch/i);
  assert.match(other.stdout, /jieba/);
  const json = engram(['status', ...common, '--json'], { HOME: dirs.root, ENGRAM_TOKENIZER: 'jieba' });
  const status = JSON.parse(json.stdout) as { warnings: string[]; tokenizer: { mismatch: boolean } };
  assert.equal(status.tokenizer.mismatch, true);
  assert.ok(status.warnings.some((w) => /tokenizer mismatch/.test(w)), 'a status warning (the console shows them too)');
});

test('status after an upgrade that changed the terms says so once, and that an index run fixes it', async () => {
  const { createClient } = await import('@libsql/client');
  const { join } = await import('node:path');
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  assert.equal(engram(['index', ...common], { HOME: dirs.root }).code, 0);
  const db = createClient({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
  await db.execute("UPDATE index_manifest SET tokenizer = 'jieba+terms1'");
  db.close();
  const older = engram(['status', ...common], { HOME: dirs.root });
  assert.equal(older.code, 0, older.stderr);
  assert.equal(older.stdout.match(/tokenizer mismatch/g)?.length, 1, older.stdout);
  assert.match(older.stdout, /WARNING tokenizer mismatch: the index holds terms of an older jieba tokenizer \(jieba\+terms1, this process: jieba\+terms\d+\)/);
  assert.match(older.stdout, /next index run re-tokenises everything/);
  assert.doesNotMatch(older.stdout, /use the same tokenizer/, 'one tokenizer everywhere: nothing to make the same');
});
