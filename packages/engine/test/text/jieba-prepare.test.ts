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
