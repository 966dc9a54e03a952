// jieba with a dictionary subset (the compiled CLI's word index, scripts/jieba-words.mjs) must
// segment byte for byte like jieba with the whole dictionary: plain and search mode, with and
// without HMM, with user words (a new word and one that overrides a dictionary word's frequency).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildWordIndex } from '../../scripts/jieba-words.mjs';
import { jiebaPackageDir, lazyBundledJieba, LazyBundledJieba, loadBundledJieba, setJiebaWordIndexPath } from '../../src/text/jieba.ts';
import { collectWordsIn, readWordIndex, subsetDictionary } from '../../src/text/jieba-words.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const require = createRequire(import.meta.url);
const { Jieba } = require('@node-rs/jieba') as { Jieba: ConstructorParameters<typeof LazyBundledJieba>[0] };
const dictPath = join(jiebaPackageDir(), 'dict.txt');
const dict = readFileSync(dictPath);
const dir = mkdtempSync(join(tmpdir(), 'engram-jieba-words-'));
const indexPath = join(dir, 'jieba-words.bin');
writeFileSync(indexPath, buildWordIndex(dict, { dictMtimeMs: statSync(dictPath).mtimeMs }));

/** Deterministic text: dictionary words strung together with single characters, latin, digits and punctuation between. */
function generatedTexts(count: number): string[] {
  const words = dict.toString('utf8').split('\n').filter(Boolean).map((l) => l.split(' ')[0]!);
  let s = 12345;
  const r = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const fillers = ['的', '了', '在', '和', '是', '，', '。', ' ', 'sing-box', '443', 'Node.js', '「', '」', '𠮷', '去重', '尚恩', '实词判据'];
  return Array.from({ length: count }, () => {
    let text = '';
    while (text.length < 200) text += r() < 0.7 ? words[Math.floor(r() ** 3 * words.length)]! : fillers[Math.floor(r() * fillers.length)]!;
    return text;
  });
}

const REAL = [
  '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管。',
  '中华人民共和国成立于一九四九年,首都是北京。',
  '条目级去重以后,召回排序更准,单字权重降到 0.15。',
  '478 次真实调用中缓存命中率 98.37%,唯一一次断崖来自系统提示词长度变化。',
  '他来到了网易杭研大厦,小明硕士毕业于中国科学院计算所,后在日本京都大学深造。',
];
const cmrcPath = new URL('../../../../../shared/datasets/cmrc2018/cmrc2018_dev.json', import.meta.url);
const cmrc = existsSync(cmrcPath)
  ? (JSON.parse(readFileSync(cmrcPath, 'utf8')) as { data: { paragraphs: { context: string }[] }[] }).data.flatMap((a) => a.paragraphs.map((p) => p.context)).slice(0, 150)
  : [];
const TEXTS = [...REAL, ...generatedTexts(250), ...cmrc];

const USER = ['实词判据 100 n', '节点 3', '尚恩有', '去重 50000 v'];

test('a dictionary subset segments exactly like the whole dictionary (cut / search, HMM on and off, user words)', () => {
  const read = readWordIndex(indexPath, dictPath);
  assert.ok(read.ok, read.ok ? '' : read.reason);
  for (const userDict of [[], USER]) {
    const full = Jieba.withDict(dict);
    const lazy = new LazyBundledJieba(Jieba, dictPath);
    setJiebaWordIndexPath(indexPath);
    assert.equal(lazy.addUserDict(userDict).errors.length, 0);
    if (userDict.length) full.loadDict(Buffer.from(`${USER.map((l) => (l.split(' ').length === 1 ? `${l} 2000` : l)).join('\n')}\n`));
    let compared = 0;
    for (const text of TEXTS) {
      const subset = lazy.segmenterFor(text);
      for (const hmm of [false, true]) {
        assert.deepEqual(subset.cut(text, hmm), full.cut(text, hmm), `cut hmm=${hmm} user=${userDict.length}: ${text.slice(0, 40)}`);
        assert.deepEqual(subset.cutForSearch(text, hmm), full.cutForSearch(text, hmm), `search hmm=${hmm}: ${text.slice(0, 40)}`);
        compared += 2;
      }
      if (lazy.built) break;
    }
    assert.ok(compared > 400, `compared ${compared} segmentations with a subset`);
  }
});

test('the bundled tokenizer: same tokens as the whole dictionary; short texts never build it, a large volume does', () => {
  setJiebaWordIndexPath(indexPath);
  const bundled = lazyBundledJieba();
  assert.ok(bundled.ok);
  const lazyTokenizer = createTokenizer({ kind: 'auto' });
  assert.equal(lazyTokenizer.engine, 'jieba');
  const eager = createTokenizer({ kind: 'jieba', loadJieba: () => loadBundledJieba() });
  for (const text of REAL) assert.deepEqual(lazyTokenizer.tokenize(text), eager.tokenize(text), text);
  assert.equal(bundled.jieba.built, false, 'a few sentences: segmented with subsets only');
  for (const text of TEXTS) assert.deepEqual(lazyTokenizer.tokenize(text), eager.tokenize(text), text.slice(0, 40));
  assert.equal(bundled.jieba.built, true, 'past the budget: the whole dictionary is built once');
  for (const text of REAL) assert.deepEqual(lazyTokenizer.tokenize(text), eager.tokenize(text), `after the switch: ${text}`);
});

test('a damaged word index, or one of another dictionary, is refused (the whole dictionary is used instead)', () => {
  const bytes = readFileSync(indexPath);
  const at = bytes.length - 1000;
  bytes[at] = bytes[at]! ^ 0x01;
  const damaged = join(dir, 'damaged.bin');
  writeFileSync(damaged, bytes);
  assert.deepEqual(readWordIndex(damaged, dictPath), { ok: false, reason: 'damaged (checksum)' });
  const otherDict = join(dir, 'other-dict.txt');
  writeFileSync(otherDict, `${dict.toString('utf8')}新词 5 n\n`);
  assert.match((readWordIndex(indexPath, otherDict) as { reason: string }).reason, /another dictionary/);
  const sameSize = join(dir, 'same-size.txt');
  const edited = Buffer.from(dict);
  edited[edited.indexOf(Buffer.from('1号店 3')) + Buffer.byteLength('1号店 ')] = '4'.charCodeAt(0);
  writeFileSync(sameSize, edited);
  assert.match((readWordIndex(indexPath, sameSize) as { reason: string }).reason, /SHA-1 differs/);

  const lazy = new LazyBundledJieba(Jieba, dictPath);
  setJiebaWordIndexPath(damaged);
  const full = Jieba.withDict(dict);
  assert.deepEqual(lazy.segmenterFor(REAL[1]!).cut(REAL[1]!, false), full.cut(REAL[1]!, false));
  assert.equal(lazy.built, true, 'no usable index: the whole dictionary');
  assert.equal(lazy.wordsUnavailable, 'damaged (checksum)');
});

test('a word index found whole is marked, and hashed again once written since or when the mark names another body', () => {
  const path = join(dir, 'marked.bin');
  const whole = buildWordIndex(dict, { dictMtimeMs: statSync(dictPath).mtimeMs });
  writeFileSync(path, whole);
  assert.ok(readWordIndex(path, dictPath).ok);
  assert.ok(existsSync(`${path}.checked`), 'the whole body is marked');
  assert.ok(readWordIndex(path, dictPath).ok, 'a marked file still opens');
  // The same bytes but one, written over the marked file (its size unchanged): refused despite the mark.
  const damaged = Buffer.from(whole);
  damaged[damaged.length - 1000] = damaged[damaged.length - 1000]! ^ 0x01;
  writeFileSync(path, damaged);
  assert.deepEqual(readWordIndex(path, dictPath), { ok: false, reason: 'damaged (checksum)' });
  // A mark that matches the file as it is now but names another body's SHA-1: hashed, and refused.
  const mark = readFileSync(`${path}.checked`, 'utf8');
  const s = statSync(path);
  writeFileSync(`${path}.checked`, `${s.size}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}:${mark.slice(mark.lastIndexOf(':') + 1).replace(/^./, (c) => (c === '0' ? '1' : '0'))}`);
  assert.deepEqual(readWordIndex(path, dictPath), { ok: false, reason: 'damaged (checksum)' });
});

test('an open word index keeps reading the file it checked when the path is replaced (a CLI rebuild swapping dist/cli/)', () => {
  const path = join(dir, 'swapped.bin');
  writeFileSync(path, buildWordIndex(dict, { dictMtimeMs: statSync(dictPath).mtimeMs }));
  const read = readWordIndex(path, dictPath);
  assert.ok(read.ok, read.ok ? '' : read.reason);
  // Another file of the same size at that path: the blocks read from now on must still be the checked file's.
  const other = join(dir, 'swapped-other.bin');
  writeFileSync(other, Buffer.alloc(statSync(path).size, 0x5a));
  renameSync(other, path);
  const text = REAL.join('');
  const fresh = readWordIndex(indexPath, dictPath);
  assert.ok(fresh.ok);
  const got = new Set<number>();
  const want = new Set<number>();
  collectWordsIn(read.index, text, got);
  collectWordsIn(fresh.index, text, want);
  assert.ok(want.size > 50);
  assert.equal(subsetDictionary(read.index, got), subsetDictionary(fresh.index, want));
});
