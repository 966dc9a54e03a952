// The lexical index as a file, so a one-shot process (an `engram write` or `recall`) maps what an
// earlier process built instead of rebuilding it from every row of the database.
//
//   "ENGLEX03" | CRC-32 (u32 LE) | header length (u32 LE) | header JSON | sections
//
// The header names each section (typed arrays and JSON string lists) with its type and byte length;
// sections start at multiples of 8. The caller's `meta` rides in the header, the caller's own
// sections (`extra`, e.g. the document rows) after the index's.
//
// Each section is read into memory of its own, and the tables an index grows into (the posting and
// term-list arenas, the per-term and per-slot tables) get room after their bytes: room that is never
// touched costs nothing, and the first document added after opening no longer copies megabytes into
// a bigger array. On this machine fresh memory costs ~3 ms per MB touched, the largest part of what
// a one-shot command at 5,000 memories spent on its index.
//
// A section the caller marks `Deferred` (the stored document rows, their versions, the file list) is
// not read at open but later, through the open file: whole, checked against the CRC-32 the header
// keeps for it, or piece by piece, guarded by the caller (the rows keep a CRC-32 per row). The CRC-32
// in the prefix covers the length, the header and every other section.
// CRC-32, not a cryptographic hash: it guards against damage (a torn copy, a flipped bit).
// Anything that does not check out — magic, hash, header, section sizes, the index's own
// consistency checks — reads as "no snapshot", and the caller rebuilds.
import { closeSync, fstatSync, openSync, readdirSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../diary/lock.ts';
import { crc32 } from 'node:zlib';
import { LexicalIndex, type LexicalExport, type LexicalOptions, type LexicalState } from './bm25.ts';
import { DamagedSnapshot, type LazyBytes } from './lazy-bytes.ts';
import type { PackedBytes } from './postings.ts';
import { bufferWithRoom } from './room.ts';

const MAGIC = Buffer.from('ENGLEX03', 'latin1');
const HASH_BYTES = 4;
const PREFIX = MAGIC.length + HASH_BYTES + 4;
/**
 * 3: deferred sections, per-section reads; versions in sections; title keys and vocabulary as packed
 * hash tables. 4: the index holds character grams beside the words (text/grams.ts), so a format 3
 * snapshot is rebuilt rather than searched without them. 5: a fifth field, goal (five lengths per
 * chunk, five-bit masks), and the document rows carry kind / goal.
 */
export const SNAPSHOT_FORMAT = 5;

type ArrayKind = 'u8' | 'i32' | 'f64' | 'json';
interface Section {
  name: string;
  kind: ArrayKind;
  bytes: number;
  /** Not read at open, not in the prefix checksum (see Deferred): the CRC-32 of its bytes, checked when read whole. */
  deferred?: number;
}
interface Header<M> {
  format: number;
  options: LexicalOptions;
  meta: M;
  sections: Section[];
}

const pad8 = (n: number) => (8 - (n % 8)) % 8;

type Part = Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | string[];

/**
 * A list of strings stored as JSON, encoded a batch at a time when written: a 50,000-document
 * index's lists would otherwise each be one large string and its UTF-8 copy, held at the peak.
 */
export class JsonStrings {
  constructor(
    readonly count: number,
    readonly at: (i: number) => string,
  ) {}
}

/** The CRC-32 of bytes given in pieces. */
function crcOfPieces(pieces: Iterable<Uint8Array>): number {
  let crc = 0;
  // Never an empty piece: Node 20's crc32 of a view over a zero-length ArrayBuffer drops the running value.
  for (const piece of pieces) if (piece.length > 0) crc = crc32(piece, crc);
  return crc >>> 0;
}

/** Bytes that are not (all) in memory: their size and CRC-32 known, read piece by piece when written. */
export interface ByteSource {
  readonly byteLength: number;
  readonly crc: number;
  /** The bytes in order; a piece is valid until the next one is asked for. */
  pieces(): Iterable<Uint8Array>;
}

/**
 * Bytes a reader reads later (see DeferredSection) instead of at open. They are outside the prefix
 * checksum: the header keeps their own CRC-32 for a whole read, and the caller guards the pieces it
 * reads (the stored rows keep a CRC per row).
 */
export class Deferred {
  readonly byteLength: number;
  /** Whether the bytes are a JSON list of strings (read back as a JsonList). */
  readonly json: boolean;
  private readonly source: ByteSource;
  private joined: Uint8Array | null = null;

  constructor(part: Uint8Array | ByteSource | JsonStrings) {
    this.json = part instanceof JsonStrings;
    if (part instanceof JsonStrings) {
      // Encoded twice (for the CRC the header holds, then to write) rather than kept: the version
      // and file lists of a 50,000-note pass are ~6 MB, and joined they sat on the pass's peak.
      // So the list must not change until it is written (its CRC would not match).
      const encoded = encodeStrings(part);
      this.source = { byteLength: encoded.byteLength, crc: crcOfPieces(encoded.pieces()), pieces: () => encodeStrings(part).pieces() };
    } else if (part instanceof Uint8Array) {
      this.joined = part;
      this.source = { byteLength: part.length, crc: part.length > 0 ? crc32(part) >>> 0 : 0, pieces: () => [part] };
    } else this.source = part;
    this.byteLength = this.source.byteLength;
  }

  /** The bytes as one array (joined on first use: for a reader of a part still in memory). */
  get bytes(): Uint8Array {
    if (this.joined === null) {
      // Each piece is copied as it comes: a source may fill one buffer again for every piece.
      const joined = new Uint8Array(this.byteLength);
      let at = 0;
      for (const piece of this.source.pieces()) {
        joined.set(piece, at);
        at += piece.length;
      }
      this.joined = joined;
    }
    return this.joined;
  }

  get crc(): number {
    return this.source.crc;
  }

  pieces(): Iterable<Uint8Array> {
    return this.source.pieces();
  }
}

/** A caller's own section (bytes, 32-bit integers, doubles or a list of strings), stored after the index's. */
export type SnapshotPart = Part | JsonStrings | Deferred;
type WritablePart = SnapshotPart | PackedBytes;

/** A section as the writer streams it: its type, its size, and its bytes in pieces. */
interface EncodedPart {
  name: string;
  kind: ArrayKind;
  byteLength: number;
  /** The CRC-32 of a deferred section's bytes; null for the others. */
  deferred: number | null;
  pieces(): Iterable<Uint8Array>;
}

const JSON_BATCH = 2_000;

function encodeStrings(list: JsonStrings): Pick<EncodedPart, 'byteLength' | 'pieces'> {
  let byteLength = 2 + Math.max(0, list.count - 1);
  for (let i = 0; i < list.count; i++) byteLength += Buffer.byteLength(JSON.stringify(list.at(i)), 'utf8');
  return {
    byteLength,
    *pieces() {
      yield Buffer.from('[', 'latin1');
      for (let from = 0; from < list.count; from += JSON_BATCH) {
        const batch: string[] = [];
        for (let i = from; i < Math.min(list.count, from + JSON_BATCH); i++) batch.push(JSON.stringify(list.at(i)));
        yield Buffer.from((from > 0 ? ',' : '') + batch.join(','), 'utf8');
      }
      yield Buffer.from(']', 'latin1');
    },
  };
}

function encodePart(name: string, part: WritablePart): EncodedPart {
  if (Array.isArray(part)) return { name, kind: 'json', deferred: null, ...encodeStrings(new JsonStrings(part.length, (i) => part[i]!)) };
  if (part instanceof JsonStrings) return { name, kind: 'json', deferred: null, ...encodeStrings(part) };
  if (part instanceof Deferred)
    return { name, kind: part.json ? 'json' : 'u8', deferred: part.crc, byteLength: part.byteLength, pieces: () => part.pieces() };
  if (ArrayBuffer.isView(part)) {
    const view = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    return { name, kind: part instanceof Float64Array ? 'f64' : part instanceof Int32Array ? 'i32' : 'u8', deferred: null, byteLength: view.length, pieces: () => [view] };
  }
  return { name, kind: 'u8', deferred: null, byteLength: part.byteLength, pieces: () => part.pieces() };
}

function sectionsOf(state: LexicalExport): [string, WritablePart][] {
  const { postings: p, slots: s } = state;
  return [
    ['terms.text', state.terms.text],
    ['terms.offsets', state.terms.offsets],
    ['terms.slots', state.terms.slots],
    ['documentFrequency', state.documentFrequency],
    ['fieldTotals', state.fieldTotals],
    ['postings.bytes', p.bytes],
    ['postings.start', p.start],
    ['postings.byteLengths', p.byteLengths],
    ['postings.counts', p.counts],
    ['postings.lastSlot', p.lastSlot],
    ['postings.deadCounts', p.deadCounts],
    ['postings.kindTf', p.kindTf],
    ['postings.kindMask', p.kindMask],
    ['slots.alive', s.alive],
    ['slots.weightedLength', s.weightedLength],
    ['slots.fieldLengths', s.fieldLengths],
    ['slots.termStart', s.termStart],
    ['slots.termBytes', s.termBytes],
    ['slots.termCount', s.termCount],
    ['slots.termArena', s.termArena],
    ['slots.chunkIds', s.chunkIds],
    ['slots.docIds', s.docIds],
  ];
}

const kindOf = (part: Part): ArrayKind => (Array.isArray(part) ? 'json' : part instanceof Float64Array ? 'f64' : part instanceof Int32Array ? 'i32' : 'u8');

const STAGING_BYTES = 1 << 20;

/** Sequential writes through one staging buffer, with the running CRC-32 of everything written. */
class FileSink {
  crc = 0;
  private readonly staging = Buffer.allocUnsafe(STAGING_BYTES);
  private used = 0;

  constructor(
    private readonly fd: number,
    private position: number,
  ) {}

  /** `checked`: whether the bytes count in the checksum (padding and deferred sections do not). */
  write(piece: Uint8Array, checked = true): void {
    if (piece.length === 0) return;
    // Never empty here: Node 20's crc32 of a view over a zero-length ArrayBuffer drops the running value.
    if (checked) this.crc = crc32(piece, this.crc);
    if (piece.length >= STAGING_BYTES / 4) {
      this.flush();
      this.writeOut(piece);
      return;
    }
    if (this.used + piece.length > STAGING_BYTES) this.flush();
    this.staging.set(piece, this.used);
    this.used += piece.length;
  }

  zeros(count: number): void {
    if (count > 0) this.write(new Uint8Array(count), false);
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeOut(this.staging.subarray(0, this.used));
    this.used = 0;
  }

  private writeOut(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.position + done);
    this.position += bytes.length;
  }
}

/**
 * Writes the index to `path` atomically (a temporary file renamed over it), so a reader sees the
 * old snapshot or the new one, never half of one. Sections are streamed from the index's own
 * tables: nothing the size of the index is copied to write it.
 */
export function writeLexicalSnapshot<M>(path: string, index: LexicalIndex, options: LexicalOptions, meta: M, extra: [string, SnapshotPart][] = []): void {
  const own = sectionsOf(index.exportState()).map(([name, part]): [string, WritablePart] => [name, INDEX_DEFERRED.has(name) ? deferredPart(part as Uint8Array | PackedBytes) : part]);
  const parts = [...own, ...extra.map(([name, part]): [string, WritablePart] => [`extra.${name}`, part])].map(([name, part]) => encodePart(name, part));
  const header: Header<M> = {
    format: SNAPSHOT_FORMAT,
    options,
    meta,
    sections: parts.map((p) => ({ name: p.name, kind: p.kind, bytes: p.byteLength, ...(p.deferred !== null ? { deferred: p.deferred } : {}) })),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  sweepDeadTemps(path);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, MAGIC, 0, MAGIC.length, 0);
    // The checksum covers everything after it; it is known once the rest is written.
    const sink = new FileSink(fd, PREFIX - 4);
    sink.write(length);
    sink.write(headerBytes);
    sink.zeros(pad8(PREFIX + headerBytes.length));
    for (const p of parts) {
      let written = 0;
      for (const piece of p.pieces()) {
        sink.write(piece, p.deferred === null);
        written += piece.length;
      }
      if (written !== p.byteLength) throw new Error(`section ${p.name}: wrote ${written} bytes, announced ${p.byteLength}`);
      sink.zeros(pad8(p.byteLength));
    }
    sink.flush();
    const hash = Buffer.alloc(HASH_BYTES);
    hash.writeUInt32LE(sink.crc >>> 0);
    writeSync(fd, hash, 0, HASH_BYTES, MAGIC.length);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * The index's own tables a reader leaves in the file until it needs them whole (lazy-bytes.ts): the
 * posting lists and the per-chunk term lists, most of a snapshot's bytes. A search reads only its
 * terms' lists and its hits' term lists.
 */
const INDEX_DEFERRED = new Set(['postings.bytes', 'slots.termArena']);

/** A table written as a deferred section: its CRC-32 computed first (the header, written before it, holds it). */
function deferredPart(part: Uint8Array | PackedBytes): Deferred {
  if (part instanceof Uint8Array) return new Deferred(part);
  return new Deferred({ byteLength: part.byteLength, crc: crcOfPieces(part.pieces()), pieces: () => part.pieces() });
}

/** Temporary files of writers that were killed mid-write (`<path>.tmp-<pid>` of a pid that is gone): never read, but they would pile up. */
function sweepDeadTemps(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  try {
    for (const name of readdirSync(dirname(path))) {
      if (!name.startsWith(prefix)) continue;
      // `<pid>` (a snapshot being written) or `<pid>-rows` (rows a full pass spilled while building).
      const pid = Number(/^(\d+)(?:-rows)?$/.exec(name.slice(prefix.length))?.[1]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) rmSync(join(dirname(path), name), { force: true });
    }
  } catch {
    // Best effort: a folder that cannot be listed only keeps its leftovers.
  }
}

/** A deferred section of an open snapshot: pieces read when asked for (call close() when done with it). */
export interface DeferredSection {
  readonly byteLength: number;
  /** `length` bytes from `offset` within the section; throws when the file cannot be read. */
  read(offset: number, length: number): Buffer;
  /** The whole section, checked against its CRC-32; throws when it cannot be read or does not match. */
  readAll(): Buffer;
}

/**
 * A caller's JSON list as read back: parsed on first use (a one-shot write never looks at the
 * document versions or the file list; 5,000 strings each).
 */
export class JsonList {
  private parsed: string[] | null = null;

  constructor(
    private readonly source: Uint8Array | (() => Uint8Array),
    private readonly name: string,
  ) {}

  /** A list in a deferred section: read (and checked) on first use. */
  static deferred(section: DeferredSection, name: string): JsonList {
    return new JsonList(() => section.readAll(), name);
  }

  /** The strings; throws when the section cannot be read or is not a list of strings. */
  list(): string[] {
    if (this.parsed) return this.parsed;
    const bytes = typeof this.source === 'function' ? this.source() : this.source;
    const value: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`section ${this.name} is not a list of strings`);
    return (this.parsed = value as string[]);
  }
}

/** A section as read back: typed arrays of memory of their own, the index's JSON lists parsed, a caller's as JsonList, deferred sections unread. */
export type SnapshotSection = Part | DeferredSection | JsonList;
export type SnapshotRead<M> =
  | {
      ok: true;
      index: LexicalIndex;
      meta: M;
      extra: Map<string, SnapshotSection>;
      /** Closes the file deferred sections read from (a no-op when there are none); the index reads what it left there first. */
      close(): void;
      /** Closes the file without reading what the index left there: for an index that is not searched again. */
      release(): void;
    }
  | { ok: false; reason: string };

/** Tables an index grows into: read with room after them (see the top of this file). */
const GROWN = new Set([
  'documentFrequency',
  'postings.bytes',
  'postings.start',
  'postings.byteLengths',
  'postings.counts',
  'postings.lastSlot',
  'postings.deadCounts',
  'slots.alive',
  'slots.weightedLength',
  'slots.fieldLengths',
  'slots.termStart',
  'slots.termBytes',
  'slots.termCount',
  'slots.termArena',
]);

function readExactly(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new Error('the file ends early');
    done += n;
  }
}

/**
 * Reads a snapshot written with the same lexical options. Never throws: a missing, damaged or
 * foreign file comes back as `ok: false` with the reason.
 */
export function readLexicalSnapshot<M>(path: string, options: LexicalOptions, opts: { onDamaged?: (reason: string) => void } = {}): SnapshotRead<M> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no snapshot' : `unreadable: ${(e as Error).message}` };
  }
  let keepOpen = false;
  try {
    const size = fstatSync(fd).size;
    const prefix = Buffer.alloc(PREFIX);
    if (size < PREFIX) return { ok: false, reason: 'not a lexical snapshot' };
    readExactly(fd, prefix, 0);
    if (!prefix.subarray(0, MAGIC.length).equals(MAGIC)) {
      const magic = prefix.toString('latin1', 0, MAGIC.length);
      return { ok: false, reason: magic.startsWith('ENGLEX') ? `layout ${magic}, expected ${MAGIC.toString('latin1')}` : 'not a lexical snapshot' };
    }
    const headerLength = prefix.readUInt32LE(MAGIC.length + HASH_BYTES);
    if (PREFIX + headerLength > size) return { ok: false, reason: 'checksum mismatch (damaged file)' };
    const headerBytes = Buffer.alloc(headerLength);
    readExactly(fd, headerBytes, PREFIX);
    let crc = crc32(prefix.subarray(MAGIC.length + HASH_BYTES));
    if (headerLength > 0) crc = crc32(headerBytes, crc);
    let header: Header<M>;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as Header<M>;
    } catch {
      return { ok: false, reason: 'checksum mismatch (damaged file)' };
    }
    if (!Array.isArray(header.sections)) return { ok: false, reason: 'checksum mismatch (damaged file)' };
    let at = PREFIX + headerLength;
    at += pad8(at);
    const handle: FileHandle = { fd, open: true };
    // Deferred sections are the caller's (`extra.`) and the index's largest tables (INDEX_DEFERRED),
    // which stay in the file until the index needs them whole.
    const extra = new Map<string, SnapshotSection>();
    const lazy = new Map<string, LazyBytes>();
    const read: { section: Section; bytes: Uint8Array<ArrayBuffer> }[] = [];
    for (const section of header.sections) {
      if (!Number.isInteger(section.bytes) || section.bytes < 0 || at + section.bytes > size) return { ok: false, reason: 'checksum mismatch (damaged file)' };
      if (section.deferred !== undefined && INDEX_DEFERRED.has(section.name) && section.kind === 'u8') {
        lazy.set(section.name, lazySection(handle, at, section.bytes, section.deferred, opts.onDamaged));
      } else if (section.deferred !== undefined) {
        const deferred = deferredSection(handle, at, section.bytes, section.deferred);
        extra.set(section.name.slice('extra.'.length), section.kind === 'json' ? JsonList.deferred(deferred, section.name) : deferred);
      } else {
        const buffer = GROWN.has(section.name) ? bufferWithRoom(Math.max(section.bytes * 2, 64 * 1024)) : new ArrayBuffer(section.bytes);
        const bytes = new Uint8Array(buffer, 0, section.bytes);
        readExactly(fd, bytes, at);
        if (bytes.length > 0) crc = crc32(bytes, crc);
        read.push({ section, bytes });
      }
      at += section.bytes + pad8(section.bytes);
    }
    const hasDeferred = extra.size > 0 || lazy.size > 0;
    if ((crc >>> 0) !== prefix.readUInt32LE(MAGIC.length)) return { ok: false, reason: 'checksum mismatch (damaged file)' };
    if (header.format !== SNAPSHOT_FORMAT) return { ok: false, reason: `format ${header.format}, expected ${SNAPSHOT_FORMAT}` };
    if (JSON.stringify(header.options) !== JSON.stringify(options)) return { ok: false, reason: 'built with other lexical options' };
    // Checked, so now parsed: a caller's lists when it asks for them, the index's own now.
    const parts = new Map<string, Part>();
    for (const { section, bytes } of read) {
      if (!section.name.startsWith('extra.')) parts.set(section.name, view(bytes, section));
      else extra.set(section.name.slice('extra.'.length), section.kind === 'json' ? new JsonList(bytes, section.name) : view(bytes, section));
    }
    const get = <T extends Part>(name: string, kind: ArrayKind): T => {
      const part = parts.get(name);
      if (part === undefined || kindOf(part) !== kind) throw new Error(`section ${name} missing or of the wrong type`);
      return part as T;
    };
    const state: LexicalState = {
      terms: { text: get('terms.text', 'u8'), offsets: get('terms.offsets', 'i32'), slots: get('terms.slots', 'i32') },
      documentFrequency: get('documentFrequency', 'i32'),
      fieldTotals: get('fieldTotals', 'f64'),
      postings: {
        bytes: lazy.get('postings.bytes') ?? get<Uint8Array<ArrayBuffer>>('postings.bytes', 'u8'),
        start: get('postings.start', 'i32'),
        byteLengths: get('postings.byteLengths', 'i32'),
        counts: get('postings.counts', 'i32'),
        lastSlot: get('postings.lastSlot', 'i32'),
        deadCounts: get('postings.deadCounts', 'i32'),
        kindTf: get('postings.kindTf', 'f64'),
        kindMask: get('postings.kindMask', 'u8'),
      },
      slots: {
        alive: get('slots.alive', 'u8'),
        weightedLength: get('slots.weightedLength', 'f64'),
        fieldLengths: get('slots.fieldLengths', 'i32'),
        termStart: get('slots.termStart', 'i32'),
        termBytes: get('slots.termBytes', 'i32'),
        termCount: get('slots.termCount', 'i32'),
        termArena: lazy.get('slots.termArena') ?? get<Uint8Array<ArrayBuffer>>('slots.termArena', 'u8'),
        chunkIds: get('slots.chunkIds', 'json'),
        docIds: get('slots.docIds', 'json'),
      },
    };
    const index = LexicalIndex.fromState(options, state);
    keepOpen = hasDeferred;
    if (!keepOpen) handle.open = false;
    // A reader that never calls close() (it dropped the rows unread) does not keep the file open
    // forever: the file closes once no deferred section can reach it.
    else openFiles.register(handle, fd, handle);
    const release = () => {
      if (!handle.open) return;
      handle.open = false;
      openFiles.unregister(handle);
      closeQuietly(fd);
    };
    const close = () => {
      // The index stays whole: what it left in the file is read before the file closes.
      if (handle.open && lazy.size > 0) index.loadDeferred();
      release();
    };
    return { ok: true, index, meta: header.meta, extra, close, release };
  } catch (e) {
    keepOpen = false;
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  } finally {
    if (!keepOpen) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** The open file of a snapshot with deferred sections; every such section holds it. */
interface FileHandle {
  fd: number;
  open: boolean;
}

const openFiles = new FinalizationRegistry<number>((fd) => closeQuietly(fd));

function deferredSection(handle: FileHandle, at: number, byteLength: number, crc: number): DeferredSection {
  const read = (offset: number, length: number) => {
    // Never a read through a closed descriptor: its number may belong to another file by now.
    if (!handle.open) throw new Error('the snapshot file was closed');
    if (offset < 0 || length < 0 || offset + length > byteLength) throw new Error('a read outside the section');
    const out = Buffer.allocUnsafe(length);
    readExactly(handle.fd, out, at + offset);
    return out;
  };
  return {
    byteLength,
    read,
    readAll() {
      const all = read(0, byteLength);
      if ((all.length > 0 ? crc32(all) >>> 0 : 0) !== crc) throw new Error('checksum mismatch (damaged section)');
      return all;
    },
  };
}

/**
 * One of the index's tables left in the file (lazy-bytes.ts). A piece that does not read back, or a
 * whole read whose CRC does not match, calls `onDamaged` (the caller drops the file) and throws.
 */
function lazySection(handle: FileHandle, at: number, byteLength: number, crc: number, onDamaged?: (reason: string) => void): LazyBytes {
  const damaged = (reason: string): never => {
    onDamaged?.(reason);
    throw new DamagedSnapshot(reason);
  };
  const readInto = (into: Uint8Array, offset: number) => {
    if (!handle.open) throw new Error('the snapshot file was closed');
    if (offset < 0 || offset + into.length > byteLength) damaged('a read outside the section');
    try {
      readExactly(handle.fd, into, at + offset);
    } catch (e) {
      damaged(`the snapshot file cannot be read: ${(e as Error).message}`);
    }
  };
  return {
    lazy: true,
    length: byteLength,
    damaged,
    read(offset, length) {
      const out = new Uint8Array(length);
      readInto(out, offset);
      return out;
    },
    readAll() {
      const bytes = new Uint8Array(bufferWithRoom(Math.max(byteLength * 2, 64 * 1024)), 0, byteLength);
      readInto(bytes, 0);
      if ((byteLength > 0 ? crc32(bytes) >>> 0 : 0) !== crc) damaged('checksum mismatch (damaged section)');
      return bytes;
    },
  };
}

/** A section's bytes as its typed array (over the same memory), or parsed JSON. */
function view(bytes: Uint8Array, section: Section): Part {
  const buffer = bytes.buffer as ArrayBuffer;
  switch (section.kind) {
    case 'json':
      return new JsonList(bytes, section.name).list();
    case 'u8':
      return bytes as Uint8Array<ArrayBuffer>;
    case 'i32':
      if (section.bytes % 4 !== 0) throw new Error(`section ${section.name} has a partial element`);
      return new Int32Array(buffer, 0, section.bytes / 4);
    case 'f64':
      if (section.bytes % 8 !== 0) throw new Error(`section ${section.name} has a partial element`);
      return new Float64Array(buffer, 0, section.bytes / 8);
    default:
      throw new Error(`section ${section.name} has an unknown type`);
  }
}
