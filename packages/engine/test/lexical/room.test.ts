// Room after a snapshot's tables: only a buffer made for one table may be grown into, never a view
// into a shared buffer (it would overwrite its neighbour), and the room reads as zeros.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bufferWithRoom, roomOf, withRoom } from '../../src/lexical/room.ts';

test('withRoom extends a table over its own buffer only', () => {
  const own = new Int32Array(bufferWithRoom(64), 0, 4);
  own.set([1, 2, 3, 4]);
  assert.equal(roomOf(own), 16);
  const grown = withRoom(own, 10)!;
  assert.equal(grown.buffer, own.buffer, 'the same memory, no copy');
  assert.deepEqual([...grown], [1, 2, 3, 4, 0, 0, 0, 0, 0, 0]);
  assert.equal(withRoom(own, 17), null, 'not past the buffer');
  assert.equal(withRoom(own, 2), null, 'never shorter than its data');

  const shared = new ArrayBuffer(64);
  const first = new Int32Array(shared, 0, 4);
  const second = new Int32Array(shared, 16, 4);
  assert.equal(roomOf(first), 4, 'a plain buffer has no room');
  assert.equal(withRoom(first, 8), null, 'a shared buffer is never grown into');
  assert.equal(withRoom(second, 8), null);
  const offset = new Int32Array(bufferWithRoom(64), 8, 2);
  assert.equal(withRoom(offset, 4), null, 'only a table at the start of its buffer');
});
