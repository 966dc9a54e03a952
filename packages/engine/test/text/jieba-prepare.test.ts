// Texts announced together (a write's hygiene check: the draft and up to a dozen memories) get one
// dictionary subset for all of them; each is still segmented exactly as the whole dictionary does.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildWordIndex } from '../../scripts/jieba-words.mjs';
import { jiebaPackageDir, LazyBundledJieba, setJiebaWordIndexPath } from '../../src/text/jieba.ts';

const require = createRequire(import.meta.url);
const { Jieba } = require('@node-rs/jieba') as { Jieba: ConstructorParameters<typeof LazyBundledJieba>[0] };
const dictPath = join(jiebaPackageDir(), 'dict.txt');
const dict = readFileSync(dictPath);
const indexPath = join(mkdtempSync(join(tmpdir(), 'engram-jieba-prepare-')), 'jieba-words.bin');
writeFileSync(indexPath, buildWordIndex(dict, { dictMtimeMs: statSync(dictPath).mtimeMs }));

const TEXTS = [
  '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管。',
  '中华人民共和国成立于一九四九年,首都是北京。',
  '他来到了网易杭研大厦,小明硕士毕业于中国科学院计算所,后在日本京都大学深造。',
  '大阪机房的带宽在周二凌晨做了调整,负载均衡器换成了新的配置。',
  '研究生命的起源,结婚的和尚未结婚的。',
];

test('prepare: one subset segmenter serves every prepared text, each segmented like the whole dictionary', () => {
  setJiebaWordIndexPath(indexPath);
  const full = Jieba.withDict(dict);
  const lazy = new LazyBundledJieba(Jieba, dictPath);
  lazy.prepare(TEXTS);
  const segmenters = new Set(TEXTS.map((t) => lazy.segmenterFor(t)));
  assert.equal(segmenters.size, 1, 'no text needed a second build');
  for (const text of TEXTS)
    for (const hmm of [false, true]) {
      assert.deepEqual(lazy.segmenterFor(text).cut(text, hmm), full.cut(text, hmm), text);
      assert.deepEqual(lazy.segmenterFor(text).cutForSearch(text, hmm), full.cutForSearch(text, hmm), text);
    }
  // A text with words the subset lacks gets a larger one, still exact.
  const other = '量子计算机的退相干时间与拓扑绝缘体';
  assert.notEqual(lazy.segmenterFor(other), [...segmenters][0]);
  assert.deepEqual(lazy.segmenterFor(other).cut(other, false), full.cut(other, false));
  assert.deepEqual(lazy.segmenterFor(TEXTS[2]!).cut(TEXTS[2]!, false), full.cut(TEXTS[2]!, false), 'the grown subset still serves the earlier texts');
  assert.equal(lazy.built, false, 'short texts never build the whole dictionary');
});

test('prepare: texts that add up to more than the subsets\' budget build the whole dictionary at once, no subset first', () => {
  setJiebaWordIndexPath(indexPath);
  const lazy = new LazyBundledJieba(Jieba, dictPath);
  const many = Array.from({ length: 2_000 }, (_, i) => `${TEXTS[i % TEXTS.length]}${i}`);
  let subsets = 0;
  const counting = { ...Jieba, withDict: (d: Uint8Array) => (d.length < dict.length && subsets++, Jieba.withDict(d)) } as typeof Jieba;
  const watched = new LazyBundledJieba(counting, dictPath);
  watched.prepare(many);
  assert.equal(watched.built, true);
  assert.equal(subsets, 0, 'no subset was built on the way');
  assert.deepEqual(watched.segmenterFor(TEXTS[1]!).cut(TEXTS[1]!, false), Jieba.withDict(dict).cut(TEXTS[1]!, false));
  // A few texts with more to follow ('bulk', an index pass): the whole dictionary too; without the hint, a subset.
  lazy.prepare(TEXTS);
  assert.equal(lazy.built, false);
  lazy.prepare(TEXTS, undefined, 'bulk');
  assert.equal(lazy.built, true);
});

test('an index pass over many notes builds the whole dictionary at once, no subset on the way', async () => {
  const { mkdirSync, rmSync } = await import('node:fs');
  const { openTestEngine, tempDirs } = await import('../engine/helpers.ts');
  const { lazyBundledJieba } = await import('../../src/text/jieba.ts');
  setJiebaWordIndexPath(indexPath);
  const dirs = tempDirs();
  mkdirSync(join(dirs.diaryDir, 'n'), { recursive: true });
  // 300 short notes: three batches of a pass, each well under the subsets' budget.
  for (let i = 0; i < 300; i++) writeFileSync(join(dirs.diaryDir, 'n', `2026-10-${String((i % 28) + 1).padStart(2, '0')}-n${i}.txt`), `[10:00] 笔记 ${i}\n\n${TEXTS.join('')}${i}\n`);
  const bundled = lazyBundledJieba();
  assert.ok(bundled.ok);
  bundled.jieba.resetWords();
  const Seen = bundled.jieba as unknown as { buildSubset: (...a: unknown[]) => unknown };
  const original = Seen.buildSubset;
  let subsets = 0;
  Seen.buildSubset = function (this: unknown, ...a: unknown[]) {
    subsets++;
    return original.apply(this, a);
  };
  assert.equal(bundled.jieba.built, false, 'nothing in this process built the whole dictionary yet');
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' } });
  try {
    await engine.index({ full: true });
    assert.equal(bundled.jieba.built, true);
    assert.equal(subsets, 0, 'the pass built no subset');
  } finally {
    Seen.buildSubset = original;
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  }
});
