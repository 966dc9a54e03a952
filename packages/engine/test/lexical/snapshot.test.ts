// A lexical index written to a snapshot file and read back searches, grows and shrinks exactly like
// the index it came from (dead slots, compaction and new terms included).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LexicalIndex, type LexicalEntry, type LexicalOptions } from '../../src/lexical/bm25.ts';
import { JsonList, JsonStrings, readLexicalSnapshot, writeLexicalSnapshot } from '../../src/lexical/snapshot.ts';

const OPTIONS: LexicalOptions = { k1: 1.2, b: 0.75, fieldWeights: { title: 3, summary: 2, tags: 2.5, body: 1 }, singleCharWeight: 0.15 };

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function entries(count: number, seed: number, vocabulary: number): LexicalEntry[] {
  const r = rng(seed);
  const word = () => `w${Math.floor(r() ** 2 * vocabulary)}`;
  const list = (n: number) => Array.from({ length: n }, word);
  return Array.from({ length: count }, (_, i) => ({
    chunkId: `d${i % (count / 2)}#${i}`,
    docId: `d${i % (count / 2)}`,
    fields: { title: list(1 + (i % 4)), summary: list(i % 7), tags: list(i % 3), body: list(20 + (i % 50)) },
  }));
}

const QUERIES = Array.from({ length: 30 }, (_, i) => [`w${i}`, `w${i * 7}`, `w${i * 31 + 3}`, '中', `new${i}`]);

function assertSame(a: LexicalIndex, b: LexicalIndex, label: string) {
  assert.equal(a.size, b.size, `${label}: size`);
  for (const q of QUERIES) assert.deepEqual(a.search(q, 40), b.search(q, 40), `${label}: ${q.join(' ')}`);
}

test('lexical snapshot round trip: same searches, and the same after further adds, removals and a compaction', () => {
  const original = new LexicalIndex(OPTIONS);
  for (const e of entries(3000, 1, 4000)) original.add(e);
  original.finishBulkAdd();
  for (let i = 0; i < 400; i++) original.removeDocument(`d${i * 3}`);
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'index.lexical');
  writeLexicalSnapshot(path, original, OPTIONS, { note: 'meta rides along' });
  const read = readLexicalSnapshot<{ note: string }>(path, OPTIONS);
  assert.ok(read.ok, read.ok ? '' : read.reason);
  assert.deepEqual(read.meta, { note: 'meta rides along' });
  const restored = read.index;
  assertSame(original, restored, 'restored');
  assert.deepEqual([...restored.liveChunks()], [...original.liveChunks()]);

  // The same edits on both: new documents (with new terms), and enough removals to compact slots.
  const more = entries(600, 2, 6000).map((e, i) => ({ ...e, chunkId: `n${i}`, docId: `n${i % 200}`, fields: { ...e.fields, body: [...e.fields.body, `new${i % 30}`] } }));
  for (const index of [original, restored]) {
    for (const e of more) index.add(e);
    for (let i = 0; i < 1400; i++) index.removeDocument(`d${i}`);
  }
  assertSame(original, restored, 'after edits');
  assert.equal(readLexicalSnapshot(path, { ...OPTIONS, k1: 1.3 }).ok, false, 'other options: not read');
});

test('lexical snapshot of an empty index reads back and can grow', () => {
  const empty = new LexicalIndex(OPTIONS);
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'empty.lexical');
  writeLexicalSnapshot(path, empty, OPTIONS, null);
  const read = readLexicalSnapshot(path, OPTIONS);
  assert.ok(read.ok);
  const fresh = new LexicalIndex(OPTIONS);
  for (const e of entries(200, 3, 500)) {
    read.index.add(e);
    fresh.add(e);
  }
  assertSame(fresh, read.index, 'grown from empty');
});

test('writing a snapshot sweeps the temporary files of writers that died mid-write, not those of live ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-lexsnap-'));
  const path = join(dir, 'engram.db.lexical');
  let dead = 999_999;
  while (dead > 1 && (() => { try { process.kill(dead, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; } })()) dead--;
  writeFileSync(`${path}.tmp-${dead}`, 'half a snapshot');
  writeFileSync(`${path}.tmp-${process.ppid}`, 'a live writer');
  writeFileSync(join(dir, 'other.tmp-1'), 'not ours');
  writeLexicalSnapshot(path, new LexicalIndex(OPTIONS), OPTIONS, null);
  assert.deepEqual(readdirSync(dir).sort(), ['engram.db.lexical', `engram.db.lexical.tmp-${process.ppid}`, 'other.tmp-1'].sort());
});

test('sections are streamed exactly: large and small pieces, string lists longer than one encoding batch, empty sections', () => {
  const index = new LexicalIndex(OPTIONS);
  for (const e of entries(400, 5, 900)) index.add(e);
  const big = new Uint8Array(700_000).map((_, i) => (i * 31) & 0xff);
  const strings = Array.from({ length: 4_500 }, (_, i) => (i % 3 === 0 ? `行 ${i} "引号" \\ 反斜杠\n` : `s${i}`));
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'index.lexical');
  writeLexicalSnapshot(path, index, OPTIONS, { n: 1 }, [
    ['big', big],
    ['empty.bytes', new Uint8Array(0)],
    ['empty.list', []],
    ['strings', new JsonStrings(strings.length, (i) => strings[i]!)],
    ['doubles', Float64Array.from([1.5, -2, Math.PI])],
  ]);
  const read = readLexicalSnapshot<{ n: number }>(path, OPTIONS);
  assert.ok(read.ok, read.ok ? '' : read.reason);
  assert.deepEqual(read.extra.get('big'), big);
  assert.deepEqual(read.extra.get('empty.bytes'), new Uint8Array(0));
  // A caller's lists come back parsed on first use.
  assert.deepEqual((read.extra.get('empty.list') as JsonList).list(), []);
  assert.deepEqual((read.extra.get('strings') as JsonList).list(), strings);
  assert.deepEqual([...(read.extra.get('doubles') as Float64Array)], [1.5, -2, Math.PI]);
  assertSame(index, read.index, 'index beside the extra sections');
  // One flipped byte anywhere after the checksum is caught.
  const bytes = readFileSync(path);
  bytes[bytes.length - 100_000]! ^= 0x01;
  writeFileSync(path, bytes);
  const damaged = readLexicalSnapshot(path, OPTIONS);
  assert.equal(damaged.ok, false);
  assert.match(damaged.ok ? '' : damaged.reason, /checksum/);
});

test('a snapshot\'s posting and term lists stay in the file until the index changes: searched a list at a time, then read whole', () => {
  const original = new LexicalIndex(OPTIONS);
  for (const e of entries(3000, 3, 4000)) original.add(e);
  original.finishBulkAdd();
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'index.lexical');
  writeLexicalSnapshot(path, original, OPTIONS, {});
  const read = readLexicalSnapshot(path, OPTIONS);
  assert.ok(read.ok, read.ok ? '' : read.reason);
  const restored = read.index;
  restored.search(['w1'], 40); // the search's own scratch tables, grown once
  const before = restored.memoryBytes();
  assertSame(original, restored, 'searched from the file');
  assert.equal(restored.memoryBytes(), before, 'searching read no list into the index');
  const exported = original.exportState();
  const lists = exported.postings.bytes.byteLength + exported.slots.termArena.length;
  const added = { chunkId: 'x#0', docId: 'x', fields: { title: ['w1'], summary: [], tags: [], body: ['w2', 'new1'] } };
  for (const index of [original, restored]) index.add(added);
  assertSame(original, restored, 'after an add (the lists read whole)');
  assert.ok(restored.memoryBytes() - before >= lists, `the lists (${lists} bytes) came into memory only with the add (+${restored.memoryBytes() - before})`);
  read.close();
  assertSame(original, restored, 'after the file closed');
});

test('closing a snapshot keeps its index whole; releasing it leaves the index unsearchable', () => {
  const original = new LexicalIndex(OPTIONS);
  for (const e of entries(400, 4, 500)) original.add(e);
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'index.lexical');
  writeLexicalSnapshot(path, original, OPTIONS, {});
  const kept = readLexicalSnapshot(path, OPTIONS);
  const dropped = readLexicalSnapshot(path, OPTIONS);
  assert.ok(kept.ok && dropped.ok);
  kept.close();
  assertSame(original, kept.index, 'closed: read before the file closed');
  dropped.release();
  assert.throws(() => dropped.index.search(['w1', 'w2'], 10), /closed/);
});

test('a posting list damaged in the file after the open is caught when read, reported, and never scored', () => {
  const original = new LexicalIndex(OPTIONS);
  for (const e of entries(400, 5, 500)) original.add(e);
  const path = join(mkdtempSync(join(tmpdir(), 'engram-lexsnap-')), 'index.lexical');
  writeLexicalSnapshot(path, original, OPTIONS, {});
  const reasons: string[] = [];
  const read = readLexicalSnapshot(path, OPTIONS, { onDamaged: (reason) => reasons.push(reason) });
  assert.ok(read.ok);
  // Every byte of the posting section overwritten in place (the open file sees it).
  const raw = readFileSync(path);
  const headerLength = raw.readUInt32LE(12);
  const header = JSON.parse(raw.subarray(16, 16 + headerLength).toString('utf8')) as { sections: { name: string; bytes: number; deferred?: number }[] };
  let at = 16 + headerLength;
  at += (8 - (at % 8)) % 8;
  for (const s of header.sections) {
    if (s.name === 'postings.bytes') {
      assert.notEqual(s.deferred, undefined, 'the posting lists are a deferred section');
      const damaged = Buffer.from(raw);
      damaged.fill(0xff, at, at + s.bytes);
      writeFileSync(path, damaged);
    }
    at += s.bytes + ((8 - (s.bytes % 8)) % 8);
  }
  assert.throws(() => read.index.search(['w1', 'w2', 'w3'], 10), /does not read back|read outside/);
  assert.ok(reasons.length > 0, 'the damage was reported');
  reasons.length = 0;
  assert.throws(() => read.index.loadDeferred(), /checksum mismatch/, 'read whole (as any change does), the section fails its CRC');
  assert.equal(reasons.length, 1);
  read.release();
});
