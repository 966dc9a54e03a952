// A table of a snapshot left in the file until something needs all of it. A one-shot command that
// searches a 50,000-note index reads a few kilobytes of posting lists, not the 80 MB of lists and
// per-chunk term lists the index holds: each piece is read when asked for, and checked by what the
// index knows of it (a list's posting count and last slot, a chunk's term count), since the
// section's CRC covers only whole reads. Anything that changes the table reads it whole first.

export interface LazyBytes {
  readonly lazy: true;
  /** The section's length in bytes. */
  readonly length: number;
  /** `length` bytes from `offset`, read now; throws when the file was closed or cannot be read. */
  read(offset: number, length: number): Uint8Array;
  /** The whole section, checked against its CRC-32, in a buffer with room to grow into (room.ts); throws DamagedSnapshot when it does not match. */
  readAll(): Uint8Array<ArrayBuffer>;
  /** A piece that did not check out: reports it to the snapshot's reader and throws DamagedSnapshot. */
  damaged(reason: string): never;
}

export const isLazyBytes = (x: unknown): x is LazyBytes => typeof x === 'object' && x !== null && (x as { lazy?: unknown }).lazy === true;

/** A piece of a snapshot read after its open did not check out. */
export class DamagedSnapshot extends Error {}
