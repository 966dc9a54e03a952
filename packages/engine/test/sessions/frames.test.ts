// Frame splitting and decoding of multi-frame session logs: every intact frame is read, damage is
// skipped and counted, and magic bytes inside a frame's data do not split it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrames, frameSpan } from '../../src/sessions/frames.ts';
import { concat, frameOf, prng, rawFrame, zstdReady } from './fixtures.ts';

const rows = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ type: 'x', seq: i, tag, text: `第 ${i} 行 ${tag}` }));

test('multi-frame log: rows of every frame in order', async () => {
  await zstdReady();
  const bytes = concat([frameOf(rows(3, 'a')), frameOf(rows(2, 'b'), 19), frameOf(rows(4, 'c'), 1)]);
  const out = decodeFrames(bytes);
  assert.equal(out.frames, 3);
  assert.equal(out.badFrames, 0);
  assert.equal(out.badLines, 0);
  assert.deepEqual(
    out.rows.map((r) => r.tag),
    ['a', 'a', 'a', 'b', 'b', 'c', 'c', 'c', 'c'],
  );
});

test('a corrupt frame is skipped and counted; the frames around it survive', async () => {
  await zstdReady();
  const good1 = frameOf(rows(2, 'a'));
  const bad = frameOf(rows(5, 'bad'));
  const rnd = prng(7);
  // Keep the magic, replace everything after it with noise.
  for (let i = 4; i < bad.length; i++) bad[i] = Math.floor(rnd() * 256);
  const good2 = frameOf(rows(3, 'c'));
  const out = decodeFrames(concat([good1, bad, good2]));
  assert.equal(out.badFrames, 1);
  assert.deepEqual(
    out.rows.map((r) => r.tag),
    ['a', 'a', 'c', 'c', 'c'],
  );
});

test('a truncated tail frame is counted, earlier rows kept', async () => {
  await zstdReady();
  const full = concat([frameOf(rows(2, 'a')), frameOf(rows(40, 'b'))]);
  const cut = full.subarray(0, full.length - 7);
  const out = decodeFrames(cut);
  assert.equal(out.frames, 1);
  assert.equal(out.badFrames, 1);
  assert.deepEqual(
    out.rows.map((r) => r.tag),
    ['a', 'a'],
  );
  assert.deepEqual(frameSpan(cut, frameOf(rows(2, 'a')).length), { ok: false, reason: 'truncated' });
});

test('magic bytes inside a frame’s data do not split it', () => {
  // A raw block stores its bytes verbatim, so the magic lands inside the frame.
  const line = Buffer.concat([Buffer.from('{"type":"blob","v":"'), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xc3, 0xa9]), Buffer.from('"}\n')]);
  const first = rawFrame(Buffer.concat([line, Buffer.from('{"type":"after","n":1}\n')]));
  const second = rawFrame(Buffer.from('{"type":"next","n":2}\n'));
  const bytes = concat([first, second]);
  assert.ok(Buffer.from(first).indexOf(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), 4) > 0, 'the fixture really holds an inner magic');
  const out = decodeFrames(bytes);
  assert.equal(out.badFrames, 0);
  assert.deepEqual(
    out.rows.map((r) => r.type),
    ['blob', 'after', 'next'],
  );
});

test('garbage before, between and after frames is skipped and counted; skippable frames are silent', async () => {
  await zstdReady();
  const skippable = Uint8Array.of(0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3);
  const bytes = concat([Buffer.from('junk!'), frameOf(rows(1, 'a')), skippable, Buffer.from('xx'), frameOf(rows(1, 'b')), Buffer.from('tail')]);
  const out = decodeFrames(bytes);
  assert.deepEqual(
    out.rows.map((r) => r.tag),
    ['a', 'b'],
  );
  assert.equal(out.badFrames, 0);
  assert.equal(out.skippedBytes, 'junk!'.length + 'xx'.length + 'tail'.length);
});

test('bad JSON lines and non-object rows are counted, not thrown', async () => {
  await zstdReady();
  const text = '{"type":"a"}\n{not json\n[1,2]\n"str"\n\n{"type":"b"}\n';
  const out = decodeFrames(rawFrame(Buffer.from(text)));
  assert.deepEqual(
    out.rows.map((r) => r.type),
    ['a', 'b'],
  );
  assert.equal(out.badLines, 3);
});

test('a row split across two frames is joined; a lost second half is one bad line', () => {
  const a = rawFrame(Buffer.from('{"type":"one"}\n{"type":"tw'));
  const b = rawFrame(Buffer.from('o","n":2}\n'));
  assert.deepEqual(
    decodeFrames(concat([a, b])).rows.map((r) => r.type),
    ['one', 'two'],
  );
  const lost = decodeFrames(a);
  assert.deepEqual(
    lost.rows.map((r) => r.type),
    ['one'],
  );
  assert.equal(lost.badLines, 1);
});

test('a header declaring a huge content size is refused before the decoder allocates it', () => {
  const frame = rawFrame(Buffer.from('{"type":"a"}\n'));
  frame[8] = 0x7f; // content size ≈ 2 GiB
  const out = decodeFrames(frame);
  assert.equal(out.badFrames, 1);
  assert.equal(out.rows.length, 0);
  assert.deepEqual(frameSpan(frame, 0), { ok: false, reason: 'invalid' });
});

test('empty and non-zstd input', () => {
  assert.deepEqual(decodeFrames(new Uint8Array(0)), { rows: [], frames: 0, badFrames: 0, badLines: 0, skippedBytes: 0 });
  const out = decodeFrames(Buffer.from('{"type":"a"}\n'));
  assert.equal(out.rows.length, 0);
  assert.equal(out.skippedBytes, 13);
});

// A real frame with one byte flipped (found by fuzzing): fzstd reads absurd match lengths from it
// and, unguarded, loops for about ten seconds before returning garbage. Under the decode budget it
// is one damaged frame, and the frame after it is still read.
const RUNAWAY_FRAME =
  'KLUv/WDuAG0HABLMKiuAqekIYAb+RoIWgAo9iQ6pq38DkbLYyBpiLGkexgD1kmfUSHtsh5i8cah0SowNB3rriI+wJAsSV6XPhX7a5qfT9HPNEbOLZyDAM0HoRQP7QEripyMewookKESWhoeJxTBBcLisCcnSFgjkuhpsgL7f9pOe5wkk+DwDRQ2zAo55Hwq4TCkxNn2ld+2gJ2OMaZpGYwzHWej3EfWz6QuWn2/omhUPUn39Tgf9KuYgYCIilHzQ8ryTvnFdAJyOsxaDCXidIzQzi6rIgUYmgiVsS+y0/ImPbBtiYafhR/SGf0UO9hRKLyGlRWtroA==';

test('a frame that sends the decoder into a runaway loop is cut off and counted', async () => {
  await zstdReady();
  const out = decodeFrames(concat([frameOf(rows(1, 'a')), Buffer.from(RUNAWAY_FRAME, 'base64'), frameOf(rows(2, 'b'))]));
  assert.equal(out.badFrames, 1);
  assert.deepEqual(
    out.rows.map((r) => r.tag),
    ['a', 'b', 'b'],
  );
});

test('a frame that hit its wall-time budget is tried again only when it was starved of CPU', async () => {
  const { retryAfterTimeout, MAX_STARVED_RETRIES } = await import('../../src/sessions/frames.ts');
  // Starved: the machine gave the decode 20 ms of CPU in a 250 ms budget; a looping decoder burns the whole budget.
  assert.equal(retryAfterTimeout(20, 250, 0), true);
  assert.equal(retryAfterTimeout(240, 250, 0), false);
  // Bounded: a frame that is starved every time is given up after the retries, so a busy machine cannot hang an import.
  assert.equal(retryAfterTimeout(20, 250, MAX_STARVED_RETRIES), false);
});
