// Tables read from a snapshot with room after their bytes (see snapshot.ts): an index that grows
// into them extends its view over the same memory instead of copying into a bigger array.
// Only buffers a snapshot read made for one section alone are marked: a view into a shared buffer
// would "grow" over its neighbour's bytes.

const ownBuffers = new WeakSet<ArrayBuffer>();

/** A buffer of `room` bytes made for one table, its bytes at the start: the rest may be grown into. */
export function bufferWithRoom(room: number): ArrayBuffer {
  const buffer = new ArrayBuffer(room);
  ownBuffers.add(buffer);
  return buffer;
}

type Table = Uint8Array | Int32Array | Float64Array;

/** How many elements `array` could hold in its marked buffer (its own length when not marked). */
export function roomOf(array: Table): number {
  const buffer = array.buffer as ArrayBuffer;
  return ownBuffers.has(buffer) && array.byteOffset === 0 ? buffer.byteLength / array.BYTES_PER_ELEMENT : array.length;
}

/** The first `length` elements of the array's marked buffer (zeros past its data), or null when it has no such room. */
export function withRoom<T extends Table>(array: T, length: number): T | null {
  if (roomOf(array) < length || length < array.length) return null;
  if (length === array.length) return array;
  return new (array.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T)(array.buffer as ArrayBuffer, 0, length);
}

/** The array over all of its marked buffer's room, or the array itself when it has none. */
export function extended<T extends Table>(array: T): T {
  return withRoom(array, roomOf(array)) ?? array;
}
