// Byte arenas that grow in place. A build's per-chunk term lists live in one arena that doubled by
// copying: at 50,000 notes its last doubling (32 → 64 MB) held the old and the new copy at once and
// was the build's peak resident memory (453 MB at that moment, ~20 MB above the pass around it). A
// resizable ArrayBuffer reserves address space once and commits pages only as they are written, so
// growing it moves nothing.

/** Address space reserved per arena; only what is written is resident. Beyond it, growth copies into a larger reservation. */
const RESERVED_BYTES = 1 << 30;

// ES2024's resizable ArrayBuffer (Node 20 has it; the project's TypeScript library predates it).
interface ResizableBuffer extends ArrayBuffer {
  readonly resizable: boolean;
  readonly maxByteLength: number;
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;

const isResizable = (buffer: ArrayBufferLike): buffer is ResizableBuffer => buffer instanceof ArrayBuffer && (buffer as ResizableBuffer).resizable === true;

/**
 * `bytes` with room for at least `minLength` bytes, its contents kept: the same memory grown in place
 * when it is a growable arena (doubling), else copied once into one. Past `minLength` the bytes are zero.
 */
export function grownArena(bytes: Uint8Array<ArrayBuffer>, minLength: number): Uint8Array<ArrayBuffer> {
  if (minLength <= bytes.length) return bytes;
  const length = Math.max(minLength, bytes.length * 2, 64 * 1024);
  const buffer = bytes.buffer;
  if (isResizable(buffer) && bytes.byteOffset === 0 && length <= buffer.maxByteLength) {
    buffer.resize(length);
    return new Uint8Array(buffer, 0, length);
  }
  const fresh = new Resizable(length, { maxByteLength: Math.max(RESERVED_BYTES, length * 2) });
  const out = new Uint8Array(fresh, 0, length);
  out.set(bytes);
  return out;
}

/** The arena cut to `length` bytes: in place for a growable one (the pages past it are given back), else a copy. */
export function trimmedArena(bytes: Uint8Array<ArrayBuffer>, length: number): Uint8Array<ArrayBuffer> {
  if (length >= bytes.length) return bytes;
  const buffer = bytes.buffer;
  if (isResizable(buffer) && bytes.byteOffset === 0) {
    buffer.resize(length);
    return new Uint8Array(buffer, 0, length);
  }
  return bytes.slice(0, length);
}
