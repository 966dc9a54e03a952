// The prebuilt background IDF table (scripts/jieba-idf.mjs, shipped as dist/cli/jieba-idf.bin) must
// answer exactly like the parse of jieba's idf.txt it replaces: the same value for every kept word,
// nothing for every other word, and it must be refused (idf.txt parsed instead) when it is damaged
// or was built from another idf.txt or with another threshold.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { buildIdfTable } from '../../scripts/jieba-idf.mjs';
import { backgroundIdfSource, backgroundIdfTable, parseIdfText, readIdfTable, setBackgroundIdfPath } from '../../src/recall/background-idf.ts';
import { jiebaPackageDir } from '../../src/text/jieba.ts';

const idfPath = join(jiebaPackageDir(), 'idf.txt');
const idf = readFileSync(idfPath);
const idfMtimeMs = statSync(idfPath).mtimeMs;
const KEEP_BELOW = 10;
const dir = mkdtempSync(join(tmpdir(), 'engram-idf-table-'));
const file = (name: string, bytes: Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
const good = file('jieba-idf.bin', buildIdfTable(idf, { keepBelow: KEEP_BELOW, idfMtimeMs }));
/** What every process got before the prebuilt table: idf.txt parsed into a Map. */
const reference = parseIdfText(idf);

/** Words the table must not know: idf.txt's rare words, prefixes and extensions of kept words, odd strings. */
function unknownWords(): string[] {
  const out = new Set<string>(['', ' ', '\u0000', '\uffff', '\uE000\uE001', '𠮷', '𠮷野家', 'sing-box', 'nginx', '443', '东京节点443端口', '的的的的的的的的的的的的的的的的']);
  const lines = idf.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i += 7) {
    const [word = '', value] = lines[i]!.split(' ');
    if (Number(value) >= KEEP_BELOW) out.add(word);
  }
  let i = 0;
  for (const word of reference.keys()) {
    if (i++ % 5 !== 0) continue;
    out.add(`${word}的`);
    out.add(`${word}\u0000`);
    if (word.length > 1) out.add(word.slice(0, -1));
    if (word.length > 1) out.add(word.slice(1));
  }
  return [...out].filter((w) => !reference.has(w));
}

test('the prebuilt table gives every kept word the value idf.txt gives it, and no value to any other word', () => {
  setBackgroundIdfPath(good);
  const table = backgroundIdfTable()!;
  assert.deepEqual(backgroundIdfSource(), { source: 'prebuilt', prebuiltUnavailable: null });
  assert.ok(reference.size > 40_000, `${reference.size} kept words`);
  assert.equal(table.size, reference.size);
  let differ = 0;
  for (const [word, value] of reference) if (!Object.is(table.get(word), value) || !table.has(word)) differ++;
  assert.equal(differ, 0, `${differ} of ${reference.size} words differ`);
  const unknown = unknownWords();
  assert.ok(unknown.length > 30_000, `${unknown.length} unknown words`);
  for (const word of unknown) {
    assert.equal(table.get(word), undefined, word);
    assert.equal(table.has(word), false, word);
  }
  assert.equal(table.get(12 as unknown as string), undefined);
  // Iteration: every entry once, in the table's (UTF-16) order.
  const sorted = [...reference].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  assert.deepEqual([...table], sorted);
  assert.deepEqual([...table.keys()], sorted.map((e) => e[0]));
  assert.deepEqual([...table.values()], sorted.map((e) => e[1]));
  assert.throws(() => table.set('新词', 1), /read-only/);
});

test('a damaged table, one of another idf.txt or threshold, or none: idf.txt is parsed instead, with the same values', () => {
  const bytes = readFileSync(good);
  const flipped = Buffer.from(bytes);
  flipped[flipped.length - 3]! ^= 1;
  // Same size as idf.txt, one digit changed, another mtime: only the SHA-1 tells them apart.
  const text = idf.toString('latin1');
  const at = text.indexOf('.', text.length / 2) + 1;
  const edited = Buffer.from(idf);
  edited[at] = edited[at] === 0x31 ? 0x32 : 0x31;
  const cases: [string, string][] = [
    [file('flipped.bin', flipped), 'damaged (checksum)'],
    [file('short.bin', bytes.subarray(0, bytes.length - 8)), 'damaged (length)'],
    [file('other-size.bin', buildIdfTable(Buffer.concat([idf, Buffer.from('新词 5.5\n')]), { keepBelow: KEEP_BELOW, idfMtimeMs })), 'built from another idf.txt (size differs)'],
    [file('other-content.bin', buildIdfTable(edited, { keepBelow: KEEP_BELOW, idfMtimeMs: idfMtimeMs - 1 })), 'built from another idf.txt (SHA-1 differs)'],
    [file('other-threshold.bin', buildIdfTable(idf, { keepBelow: 11, idfMtimeMs })), 'kept below 11, expected 10'],
    [file('foreign.bin', Buffer.from('not a table at all')), 'not a background IDF table'],
    [join(dir, 'missing.bin'), 'no prebuilt table'],
  ];
  for (const [path, reason] of cases) {
    const read = readIdfTable(path, idfPath);
    assert.deepEqual(read.ok ? 'accepted' : read.reason, reason, path);
    setBackgroundIdfPath(path);
    const table = backgroundIdfTable()!;
    assert.deepEqual(backgroundIdfSource(), { source: 'idf.txt', prebuiltUnavailable: reason });
    assert.equal(table.size, reference.size);
    for (const word of ['公司', '东京', '端口', '的']) assert.equal(table.get(word), reference.get(word));
  }
  // The same bytes at another mtime (a reinstall): accepted after comparing the SHA-1.
  assert.ok(readIdfTable(file('touched.bin', buildIdfTable(idf, { keepBelow: KEEP_BELOW, idfMtimeMs: idfMtimeMs - 1 })), idfPath).ok);
  setBackgroundIdfPath(null);
  assert.deepEqual(backgroundIdfSource(), { source: 'idf.txt', prebuiltUnavailable: 'no prebuilt table' });
});

test('an open table keeps reading the file it checked when the path is replaced (a CLI rebuild swapping dist/cli/)', () => {
  const path = file('swapped.bin', readFileSync(good));
  setBackgroundIdfPath(path);
  const table = backgroundIdfTable()!;
  assert.equal(backgroundIdfSource().source, 'prebuilt');
  renameSync(file('swapped-other.bin', Buffer.alloc(statSync(path).size, 0x5a)), path);
  let differ = 0;
  for (const [word, value] of reference) if (!Object.is(table.get(word), value)) differ++;
  assert.equal(differ, 0);
});
