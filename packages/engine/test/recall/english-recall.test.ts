// English and mixed recall through the engine (lexical; the model's part is english-channels.test.ts):
// inflected questions find their notes, small talk finds nothing, the explanation names the query's
// language and the table each word's weight came from, and an index of older terms is re-tokenised.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { getManifest, openDatabase, putManifest } from '@engram/db';
import type { Engine } from '../../src/engine.ts';
import { tokenizerIndexKey } from '../../src/text/tokenizer-check.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const NOTES: Record<string, string> = {
  '2026-10-25-standup.txt': diary('09:00', 'Weekly standup moved', 'The weekly meetings moved to Friday afternoons.', 'We scheduled the standup meetings for Fridays at 3 pm; Alice’s team joins remotely.', ['meetings']),
  '2026-10-26-retry.txt': diary('11:00', 'Retry limit raised', 'MAX_RETRY_COUNT is now 5 in fetchUserProfile.', 'The profile loader gave up too early on a flaky network; raised MAX_RETRY_COUNT from 3 to 5 in fetchUserProfile.', ['retry']),
  '2026-10-27-bike.txt': diary('18:00', 'Bike repair', 'Replaced the rear derailleur cable.', 'The rear derailleur cable was frayed; replaced it and adjusted the gears.', ['bike']),
};

describe('English recall', () => {
  const dirs = tempDirs();
  let engine: Engine;
  const opts = { embedding: { provider: 'none' } };
  before(async () => {
    seedCorpus(dirs.diaryDir);
    for (const [path, text] of Object.entries(NOTES)) writeFileSync(join(dirs.diaryDir, path), text);
    engine = await openTestEngine(dirs, {}, opts);
    await engine.index({ full: true });
  });
  after(() => engine?.close());

  it('finds a note asked about in other inflections and case', async () => {
    const r = await engine.recall('when is the weekly meeting?');
    assert.equal(r.hits[0]?.path, '2026-10-25-standup.txt');
    const r2 = await engine.recall("who joins Alice's standups remotely");
    assert.equal(r2.hits[0]?.path, '2026-10-25-standup.txt');
  });

  it('finds code by the words of its identifier', async () => {
    const r = await engine.recall('what is the max retry count for the user profile?');
    assert.equal(r.hits[0]?.path, '2026-10-26-retry.txt');
  });

  it('injects nothing for English small talk', async () => {
    for (const line of ['sounds good, thanks', 'ok, what next?', 'looks good to me', 'hold on, let me check']) {
      assert.equal((await engine.recall(line)).hits.length, 0, line);
    }
  });

  it('explains the language and where each word weight came from', async () => {
    const en = await engine.recall('when is the weekly meeting?');
    assert.equal(en.explain.language?.query, 'en');
    const meet = en.explain.terms?.find((t) => t.token === en.tokens.find((x) => x.token.startsWith('meet'))?.token);
    assert.equal(meet?.weightSource, 'language');
    assert.equal(meet?.languageTable, 'en');
    const zh = await engine.recall('东京节点 443 端口');
    assert.equal(zh.explain.language?.query, 'zh');
    assert.equal(zh.explain.language?.rule, 'calibrated');
    assert.equal(zh.explain.terms?.find((t) => t.token === '东京')?.languageTable, 'zh');
  });
});

describe('an index of older terms', () => {
  it('is re-tokenised by the next index run, and the manifest then records the terms version', async () => {
    const dirs = tempDirs();
    mkdirSync(dirs.diaryDir, { recursive: true });
    for (const [path, text] of Object.entries(NOTES)) writeFileSync(join(dirs.diaryDir, path), text);
    const opts = { embedding: { provider: 'none' } };
    let engine = await openTestEngine(dirs, {}, opts);
    await engine.index({ full: true });
    engine.close();
    const db = await openDatabase({ url: `file:${join(dirs.dataDir, 'engram.db')}` });
    const manifest = (await getManifest(db.db))!;
    assert.equal(manifest.tokenizer, tokenizerIndexKey({ engine: 'jieba' }));
    const { id: _id, ...row } = manifest;
    await putManifest(db.db, { ...row, tokenizer: 'jieba' });
    db.close();
    engine = await openTestEngine(dirs, { syncOnOpen: false }, opts);
    try {
      assert.match((await engine.status()).warnings.join('\n'), /older jieba tokenizer/);
      const report = await engine.index();
      assert.equal(report.unchanged, 0, 'every document re-tokenised');
      assert.equal((await engine.status()).tokenizer.builtWith, tokenizerIndexKey({ engine: 'jieba' }));
    } finally {
      engine.close();
    }
  });
});
