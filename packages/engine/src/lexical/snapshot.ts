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
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writevSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../diary/lock.ts';
import { crc32 } from 'node:zlib';
import { LexicalIndex, type LexicalOptions, type LexicalState } from './bm25.ts';

const MAGIC = Buffer.from('ENGLEX02', 'latin1');
const HASH_BYTES = 4;
const PREFIX = MAGIC.length + HASH_BYTES + 4;
export const SNAPSHOT_FORMAT = 1;

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
/** A caller's own section (bytes, 32-bit integers, doubles or a list of strings), stored after the index's. */
export type SnapshotPart = Part;
function sectionsOf(state: LexicalState): [string, Part][] {
  const { postings: p, slots: s } = state;
  return [
    ['terms', state.terms],
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

/**
 * Writes the index to `path` atomically (a temporary file renamed over it), so a reader sees the
 * old snapshot or the new one, never half of one.
 */
export function writeLexicalSnapshot<M>(path: string, index: LexicalIndex, options: LexicalOptions, meta: M, extra: [string, SnapshotPart][] = []): void {
  const parts = [...sectionsOf(index.exportState()), ...extra.map(([name, part]): [string, Part] => [`extra.${name}`, part])].map(([name, part]) => {
    const bytes = Array.isArray(part) ? Buffer.from(JSON.stringify(part), 'utf8') : Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    return { name, kind: kindOf(part), bytes };
  });
  const header: Header<M> = { format: SNAPSHOT_FORMAT, options, meta, sections: parts.map((p) => ({ name: p.name, kind: p.kind, bytes: p.bytes.length })) };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBytes.length);
  const body: Buffer[] = [length, headerBytes, Buffer.alloc(pad8(PREFIX + headerBytes.length))];
  for (const p of parts) body.push(p.bytes, Buffer.alloc(pad8(p.bytes.length)));
  let crc = 0;
  // Empty parts are skipped: Node 20's crc32 of a view over a zero-length ArrayBuffer drops the running value.
  for (const b of body) if (b.length > 0) crc = crc32(b, crc);
  const hash = Buffer.alloc(HASH_BYTES);
  hash.writeUInt32LE(crc >>> 0);
  sweepDeadTemps(path);
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writevSync(fd, [MAGIC, hash, ...body]);
  } finally {
    closeSync(fd);
  }
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

export type SnapshotRead<M> = { ok: true; index: LexicalIndex; meta: M; extra: Map<string, SnapshotPart> } | { ok: false; reason: string };

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
      terms: get('terms', 'json'),
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
    const extra = new Map<string, SnapshotPart>();
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
