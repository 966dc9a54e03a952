// A growable arena (lexical/growable.ts) keeps its bytes through every growth and trim, and after
// its first growth it grows and trims in the same memory: nothing is copied, so a build never holds
// an old and a new copy of its term lists at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grownArena, trimmedArena } from '../../src/lexical/growable.ts';

const pattern = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);

test('growing keeps every byte, zeroes the new ones, and after the first growth moves nothing', () => {
  let arena = pattern(1000) as Uint8Array<ArrayBuffer>;
  arena = grownArena(arena, 1500);
  assert.ok(arena.length >= 1500);
  assert.deepEqual(arena.subarray(0, 1000), pattern(1000));
  assert.ok(arena.subarray(1000).every((b) => b === 0));
  const buffer = arena.buffer;
  let filled = 1000;
  for (const need of [70_000, 200_000, 1_000_000, 5_000_000]) {
    const before = arena.slice(0, filled);
    arena = grownArena(arena, need);
    assert.ok(arena.length >= need);
    assert.equal(arena.buffer, buffer, `grew in place to ${need}`);
    assert.deepEqual(arena.subarray(0, filled), before);
    arena.set(pattern(need - filled).map((b) => b ^ 0x55), filled);
    filled = need;
  }
  assert.equal(grownArena(arena, 10), arena, 'a length it already has changes nothing');
});

test('trimming keeps the bytes it keeps, in place for a growable arena, and copies a plain array', () => {
  const grown = grownArena(pattern(100) as Uint8Array<ArrayBuffer>, 100_000);
  const trimmed = trimmedArena(grown, 60);
  assert.equal(trimmed.length, 60);
  assert.equal(trimmed.buffer, grown.buffer);
  assert.deepEqual(trimmed, pattern(60));
  // It grows again from there.
  const again = grownArena(trimmed, 200);
  assert.deepEqual(again.subarray(0, 60), pattern(60));
  assert.ok(again.subarray(60).every((b) => b === 0), 'bytes past a trim read as zero when grown back');

  const plain = pattern(100) as Uint8Array<ArrayBuffer>;
  const cut = trimmedArena(plain, 10);
  assert.notEqual(cut.buffer, plain.buffer);
  assert.deepEqual(cut, pattern(10));
});
