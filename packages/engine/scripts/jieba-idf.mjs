// Builds the background IDF table the compiled CLI ships (dist/cli/jieba-idf.bin): the words of
// jieba's idf.txt that src/recall/background-idf.ts keeps (IDF below KEEP_BELOW, ~44,000 of
// 270,000), sorted by UTF-16 code unit, with their IDF as float64, in blocks by first unit. A
// process then reads the blocks of the words it looks up and binary-searches them, instead of
// reading and parsing the 6 MB text into a Map (~100-140 ms of CPU in every one-shot `write` and
// `recall`), or even reading the whole 730 KB table (faulting in fresh pages cost ~5-25 ms here).
//
//   "ENGIDF02" | header length (u32 LE) | header JSON | pad to 8 | body:
//     directory: firstUnits u16[blocks] | pad to 4 | blockLo i32[blocks+1] (first word of each block)
//       | blockAt i32[blocks+1] (byte offset of each block in the body)
//     block (its n words): values f64[n] | starts i32[n+1] (into its units) | units u16[…] | pad to 8
//
// The header holds idf.txt's size, mtime and SHA-1 (a reader refuses a table of another idf.txt),
// KEEP_BELOW (a reader refuses a table kept with another threshold), and the SHA-1 of the body (a
// damaged file is refused). Reader: src/recall/background-idf.ts, whose parse of idf.txt this
// mirrors line for line — keep the two in step (test/recall/background-idf.test.ts compares every
// word).
import { createHash } from 'node:crypto';

export const IDF_TABLE_MAGIC = 'ENGIDF02';
export const IDF_TABLE_FORMAT = 2;

/** The words of `idf` (the bytes of idf.txt: "word idf" per line) with idf < keepBelow, as the reader's Map would hold them. */
export function parseIdf(idf, keepBelow) {
  const map = new Map();
  const text = Buffer.from(idf).toString('utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const space = text.lastIndexOf(' ', end);
    if (space > start) {
      const value = Number(text.slice(space + 1, end));
      if (value < keepBelow) map.set(text.slice(start, space), value);
    }
    start = end + 1;
  }
  return map;
}

/** The table of `idf` as file bytes; `idfMtimeMs` lets a reader skip hashing an unchanged idf.txt. */
export function buildIdfTable(idf, { keepBelow, idfMtimeMs } = {}) {
  if (typeof keepBelow !== 'number') throw new Error('buildIdfTable needs keepBelow');
  // Default string order is UTF-16 code unit order, which the reader's binary search relies on.
  const entries = [...parseIdf(idf, keepBelow)].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const count = entries.length;
  let units = 0;
  for (const [word] of entries) units += word.length;
  const blockLo = [0];
  for (let i = 1; i < count; i++) if (entries[i][0].charCodeAt(0) !== entries[i - 1][0].charCodeAt(0)) blockLo.push(i);
  blockLo.push(count);
  const blocks = blockLo.length - 1;
  const firstUnits = Uint16Array.from({ length: blocks }, (_, b) => entries[blockLo[b]][0].charCodeAt(0));
  const pad = (n, to) => (to - (n % to)) % to;
  const asBuffer = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const blockAt = new Int32Array(blocks + 1);
  let at = firstUnits.byteLength + pad(firstUnits.byteLength, 4) + 2 * (blocks + 1) * 4;
  const directoryPad = pad(at, 8);
  at += directoryPad;
  const blockParts = [];
  for (let b = 0; b < blocks; b++) {
    const words = entries.slice(blockLo[b], blockLo[b + 1]);
    const n = words.length;
    const starts = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) starts[i + 1] = starts[i] + words[i][0].length;
    const unitArray = new Uint16Array(starts[n]);
    for (let i = 0; i < n; i++) for (let k = 0; k < words[i][0].length; k++) unitArray[starts[i] + k] = words[i][0].charCodeAt(k);
    const parts = [Float64Array.from(words, (e) => e[1]), starts, unitArray].map(asBuffer);
    const bytes = parts.reduce((sum, p) => sum + p.length, 0);
    parts.push(Buffer.alloc(pad(bytes, 8)));
    blockAt[b] = at;
    at += bytes + pad(bytes, 8);
    blockParts.push(...parts);
  }
  blockAt[blocks] = at;
  const parts = [asBuffer(firstUnits), Buffer.alloc(pad(firstUnits.byteLength, 4)), asBuffer(Int32Array.from(blockLo)), asBuffer(blockAt), Buffer.alloc(directoryPad), ...blockParts];
  const bodyHash = createHash('sha1');
  for (const p of parts) bodyHash.update(p);
  const header = Buffer.from(
    JSON.stringify({
      format: IDF_TABLE_FORMAT,
      idfSize: idf.length,
      idfSha1: createHash('sha1').update(idf).digest('hex'),
      idfMtimeMs,
      keepBelow,
      count,
      units,
      blocks,
      bodyBytes: at,
      bodySha1: bodyHash.digest('hex'),
    }),
    'utf8',
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const prefix = IDF_TABLE_MAGIC.length + 4 + header.length;
  return Buffer.concat([Buffer.from(IDF_TABLE_MAGIC, 'latin1'), length, header, Buffer.alloc((8 - (prefix % 8)) % 8), ...parts]);
}
