// Builds the background IDF table the compiled CLI ships (dist/cli/jieba-idf.bin): the words of
// jieba's idf.txt that src/recall/background-idf.ts keeps (IDF below KEEP_BELOW, ~44,000 of
// 270,000), sorted by UTF-16 code unit, with their IDF as float64. A process then looks a word up
// by binary search over the file's arrays instead of reading and parsing the 6 MB text into a Map
// (~100-140 ms of CPU in every one-shot `write` and `recall`).
//
//   "ENGIDF01" | header length (u32 LE) | header JSON | pad to 8 | values f64[count]
//   | starts i32[count+1] | units u16[…]
//
// The header holds idf.txt's size, mtime and SHA-1 (a reader refuses a table of another idf.txt),
// KEEP_BELOW (a reader refuses a table kept with another threshold), and the SHA-1 of the body (a
// damaged file is refused). Reader: src/recall/background-idf.ts, whose parse of idf.txt this
// mirrors line for line — keep the two in step (test/recall/background-idf.test.ts compares every
// word).
import { createHash } from 'node:crypto';

export const IDF_TABLE_MAGIC = 'ENGIDF01';
export const IDF_TABLE_FORMAT = 1;

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
  const values = Float64Array.from(entries, (e) => e[1]);
  const starts = new Int32Array(count + 1);
  let units = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = units;
    units += entries[i][0].length;
  }
  starts[count] = units;
  const unitArray = new Uint16Array(units);
  for (let i = 0; i < count; i++) {
    const w = entries[i][0];
    for (let k = 0; k < w.length; k++) unitArray[starts[i] + k] = w.charCodeAt(k);
  }
  const parts = [values, starts, unitArray].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
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
      bodySha1: bodyHash.digest('hex'),
    }),
    'utf8',
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const prefix = IDF_TABLE_MAGIC.length + 4 + header.length;
  return Buffer.concat([Buffer.from(IDF_TABLE_MAGIC, 'latin1'), length, header, Buffer.alloc((8 - (prefix % 8)) % 8), ...parts]);
}
