// The lexical index as a file, so a one-shot process (an `engram write` or `recall`) maps what an
// earlier process built instead of rebuilding it from every row of the database.
//
//   "ENGLEX02" | CRC-32 of the rest (u32 LE) | header length (u32 LE) | header JSON | sections
//
// CRC-32, not a cryptographic hash: it guards against damage (a torn copy, a flipped bit), and reads
// 10 MB in about a millisecond where SHA-1 took ten, in every one-shot command at 5,000 memories.
//
// The header names each section (typed arrays and JSON string lists) with its type and byte length;
// sections start at multiples of 8 so the typed arrays are views of the file's bytes, not copies.
// The caller's `meta` (what the index was built from) rides in the header, the caller's own sections
// (`extra`, e.g. the document rows) after the index's. Anything that does not
// check out — magic, hash, header, section sizes, the index's own consistency checks — reads as
// "no snapshot", and the caller rebuilds.
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../diary/lock.ts';
import { crc32 } from 'node:zlib';
import { LexicalIndex, type LexicalExport, type LexicalOptions, type LexicalState } from './bm25.ts';
import type { PackedBytes } from './postings.ts';

const MAGIC = Buffer.from('ENGLEX02', 'latin1');
const HASH_BYTES = 4;
const PREFIX = MAGIC.length + HASH_BYTES + 4;
/** 2: document versions moved from the header into sections (streamed when written); row briefs hold title keys; the vocabulary is a packed hash table. */
export const SNAPSHOT_FORMAT = 2;

type ArrayKind = 'u8' | 'i32' | 'f64' | 'json';
interface Section {
  name: string;
  kind: ArrayKind;
  bytes: number;
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

/** A caller's own section (bytes, 32-bit integers, doubles or a list of strings), stored after the index's. */
export type SnapshotPart = Part | JsonStrings;
type WritablePart = SnapshotPart | PackedBytes;

/** A section as the writer streams it: its type, its size, and its bytes in pieces. */
interface EncodedPart {
  name: string;
  kind: ArrayKind;
  byteLength: number;
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
  if (Array.isArray(part)) return { name, kind: 'json', ...encodeStrings(new JsonStrings(part.length, (i) => part[i]!)) };
  if (part instanceof JsonStrings) return { name, kind: 'json', ...encodeStrings(part) };
  if (ArrayBuffer.isView(part)) {
    const view = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
    return { name, kind: part instanceof Float64Array ? 'f64' : part instanceof Int32Array ? 'i32' : 'u8', byteLength: view.length, pieces: () => [view] };
  }
  return { name, kind: 'u8', byteLength: part.byteLength, pieces: () => part.pieces() };
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

  write(piece: Uint8Array): void {
    if (piece.length === 0) return;
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
    if (count > 0) this.write(new Uint8Array(count));
  }

  flush(): void {
    if (this.used === 0) return;
    this.writeOut(this.staging.subarray(0, this.used));
    this.used = 0;
  }

  private writeOut(bytes: Uint8Array): void {
    // Never empty here: Node 20's crc32 of a view over a zero-length ArrayBuffer drops the running value.
    this.crc = crc32(bytes, this.crc);
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
  const parts = [...sectionsOf(index.exportState()), ...extra.map(([name, part]): [string, WritablePart] => [`extra.${name}`, part])].map(([name, part]) => encodePart(name, part));
  const header: Header<M> = { format: SNAPSHOT_FORMAT, options, meta, sections: parts.map((p) => ({ name: p.name, kind: p.kind, bytes: p.byteLength })) };
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
        sink.write(piece);
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

/** Temporary files of writers that were killed mid-write (`<path>.tmp-<pid>` of a pid that is gone): never read, but they would pile up. */
function sweepDeadTemps(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  try {
    for (const name of readdirSync(dirname(path))) {
      if (!name.startsWith(prefix)) continue;
      const pid = Number(name.slice(prefix.length));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) rmSync(join(dirname(path), name), { force: true });
    }
  } catch {
    // Best effort: a folder that cannot be listed only keeps its leftovers.
  }
}

/** A section as read back: typed arrays are views of the file's bytes, JSON lists are parsed. */
export type SnapshotSection = Part;
export type SnapshotRead<M> = { ok: true; index: LexicalIndex; meta: M; extra: Map<string, SnapshotSection> } | { ok: false; reason: string };

/**
 * Reads a snapshot written with the same lexical options. Never throws: a missing, damaged or
 * foreign file comes back as `ok: false` with the reason.
 */
export function readLexicalSnapshot<M>(path: string, options: LexicalOptions): SnapshotRead<M> {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no snapshot' : `unreadable: ${(e as Error).message}` };
  }
  try {
    if (file.length < PREFIX || !file.subarray(0, MAGIC.length).equals(MAGIC)) return { ok: false, reason: 'not a lexical snapshot' };
    if ((crc32(file.subarray(MAGIC.length + HASH_BYTES)) >>> 0) !== file.readUInt32LE(MAGIC.length)) return { ok: false, reason: 'checksum mismatch (damaged file)' };
    const headerLength = file.readUInt32LE(MAGIC.length + HASH_BYTES);
    const header = JSON.parse(file.toString('utf8', PREFIX, PREFIX + headerLength)) as Header<M>;
    if (header.format !== SNAPSHOT_FORMAT) return { ok: false, reason: `format ${header.format}, expected ${SNAPSHOT_FORMAT}` };
    if (JSON.stringify(header.options) !== JSON.stringify(options)) return { ok: false, reason: 'built with other lexical options' };
    let at = PREFIX + headerLength;
    at += pad8(at);
    const parts = new Map<string, Part>();
    for (const section of header.sections) {
      if (at + section.bytes > file.length) throw new Error(`section ${section.name} runs past the end`);
      parts.set(section.name, view(file, at, section));
      at += section.bytes + pad8(section.bytes);
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
        bytes: get('postings.bytes', 'u8'),
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
        termArena: get('slots.termArena', 'u8'),
        chunkIds: get('slots.chunkIds', 'json'),
        docIds: get('slots.docIds', 'json'),
      },
    };
    const extra = new Map<string, SnapshotSection>();
    for (const [name, part] of parts) if (name.startsWith('extra.')) extra.set(name.slice('extra.'.length), part);
    return { ok: true, index: LexicalIndex.fromState(options, state), meta: header.meta, extra };
  } catch (e) {
    return { ok: false, reason: `unusable: ${(e as Error).message}` };
  }
}

/** A section as a typed array over the file's bytes (aligned by the writer), or parsed JSON. */
function view(file: Buffer, at: number, section: Section): Part {
  const offset = file.byteOffset + at;
  const buffer = file.buffer as ArrayBuffer;
  switch (section.kind) {
    case 'json': {
      const value: unknown = JSON.parse(file.toString('utf8', at, at + section.bytes));
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`section ${section.name} is not a list of strings`);
      return value as string[];
    }
    case 'u8':
      return new Uint8Array(buffer, offset, section.bytes);
    case 'i32':
      if (section.bytes % 4 !== 0) throw new Error(`section ${section.name} has a partial element`);
      return offset % 4 === 0 ? new Int32Array(buffer, offset, section.bytes / 4) : new Int32Array(buffer.slice(offset, offset + section.bytes));
    case 'f64':
      if (section.bytes % 8 !== 0) throw new Error(`section ${section.name} has a partial element`);
      return offset % 8 === 0 ? new Float64Array(buffer, offset, section.bytes / 8) : new Float64Array(buffer.slice(offset, offset + section.bytes));
    default:
      throw new Error(`section ${section.name} has an unknown type`);
  }
}
