// A table of a snapshot left in the file until something needs all of it. A one-shot command that
// searches a 50,000-note index reads a few kilobytes of posting lists, not the 80 MB of lists and
// per-chunk term lists the index holds: each piece is read when asked for, and checked by what the
// index knows of it (a list's posting count and last slot, a chunk's term count), since the
// section's CRC covers only whole reads. Anything that changes the table reads it whole first.
import { extended } from './room.ts';

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

/**
 * A table's bytes that may still be in a snapshot file (the posting lists, the per-chunk term
 * lists): pieces read alone while they are there, the whole read the first time anything needs all
 * of it (any change). Built in memory, it is a plain array.
 */
export class LazyArena {
  private held: Uint8Array<ArrayBuffer>;
  private lazy: LazyBytes | null = null;

  constructor(initial: Uint8Array<ArrayBuffer>) {
    this.held = initial;
  }

  /** The whole table, read from the file first when it is still there. */
  get bytes(): Uint8Array<ArrayBuffer> {
    if (this.lazy) this.loadDeferred();
    return this.held;
  }

  set bytes(bytes: Uint8Array<ArrayBuffer>) {
    this.lazy = null;
    this.held = bytes;
  }

  /** What is in memory now (nothing of the table while it is still in the file). */
  get inMemory(): Uint8Array<ArrayBuffer> {
    return this.held;
  }

  /** Takes over a snapshot's table: read with room to grow into (room.ts), or still in the file. */
  take(table: Uint8Array<ArrayBuffer> | LazyBytes): void {
    if (isLazyBytes(table)) {
      this.lazy = table;
      this.held = new Uint8Array(0);
    } else {
      this.lazy = null;
      this.held = extended(table);
    }
  }

  /** Reads what a snapshot left in its file (before the file closes, or the table changes). */
  loadDeferred(): void {
    if (!this.lazy) return;
    const all = this.lazy.readAll();
    this.lazy = null;
    this.held = extended(all);
  }

  /**
   * `length` bytes from `begin`: a view of the table in memory, or read alone from the file and
   * accepted by `readsBack` (what the index knows of the piece; the section's CRC covers only whole
   * reads) — else the snapshot is reported damaged, naming `what`.
   */
  piece(begin: number, length: number, readsBack: (bytes: Uint8Array) => boolean, what: string): { bytes: Uint8Array; begin: number; end: number } {
    if (!this.lazy) return { bytes: this.held, begin, end: begin + length };
    const bytes = this.lazy.read(begin, length);
    if (!readsBack(bytes)) this.lazy.damaged(`${what} does not read back`);
    return { bytes, begin: 0, end: length };
  }
}
