// Builds the word index of jieba's dictionary that the compiled CLI ships (dist/cli/jieba-words.bin):
// the dictionary's words sorted by UTF-16 code unit with their frequency and tag, grouped in blocks
// by first unit, so a process reads the blocks of the characters its text contains (a few KB)
// instead of the whole 5 MB. With it, a one-shot command gives jieba only the dictionary words that
// occur in its text (src/text/jieba-words.ts) instead of building the whole 349,000-word dictionary
// (~300 ms on an idle core) for a query of ten characters.
//
//   "ENGJBW02" | header length (u32 LE) | header JSON | pad to 8 | body:
//     directory: firstUnits u16[blocks] | pad to 4 | blockLo i32[blocks+1] (first word id of each
//       block) | blockAt i32[blocks+1] (byte offset of each block in the body)
//     block (its n words): starts i32[n+1] (into its units) | freqs i32[n] | units u16[…] | tags u8[n] | pad to 4
//
// Word ids are positions in the sorted order, as in format 1. The header holds the dictionary's size
// and SHA-1 (a reader refuses an index of another dictionary), the total frequency, the tag names,
// and the SHA-1 of the body (a damaged file is refused; the reader hashes it through a small buffer,
// which costs a few ms where reading the whole file into memory cost ~25). Reader:
// src/text/jieba-words.ts — keep the two in step (test/text/jieba-words.test.ts).
import { createHash } from 'node:crypto';

export const WORD_INDEX_MAGIC = 'ENGJBW02';
export const WORD_INDEX_FORMAT = 2;

/**
 * The index of `dict` (the bytes of jieba's dict.txt: "word freq tag" per line) as file bytes;
 * `dictMtimeMs` lets a reader skip hashing an unchanged dictionary.
 */
export function buildWordIndex(dict, { dictMtimeMs } = {}) {
  const entries = [];
  let total = 0;
  const tagIds = new Map();
  for (const line of dict.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [word, freqText, tag = ''] = line.trim().split(/\s+/);
    const freq = Number(freqText);
    if (!word || !Number.isInteger(freq) || freq < 0) throw new Error(`jieba dictionary line not understood: ${line}`);
    if (!tagIds.has(tag)) tagIds.set(tag, tagIds.size);
    if (tagIds.size > 255) throw new Error('more than 255 tags in the jieba dictionary');
    entries.push({ word, freq, tag: tagIds.get(tag) });
    total += freq;
  }
  // Default string order is UTF-16 code unit order, which the reader's binary search relies on.
  entries.sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
  for (let i = 1; i < entries.length; i++) if (entries[i].word === entries[i - 1].word) throw new Error(`jieba dictionary lists ${entries[i].word} twice`);
  const count = entries.length;
  let units = 0;
  for (const e of entries) units += e.word.length;
  // Blocks: runs of words with the same first unit.
  const blockLo = [0];
  for (let i = 1; i < count; i++) if (entries[i].word.charCodeAt(0) !== entries[i - 1].word.charCodeAt(0)) blockLo.push(i);
  blockLo.push(count);
  const blocks = blockLo.length - 1;
  const firstUnits = Uint16Array.from({ length: blocks }, (_, b) => entries[blockLo[b]].word.charCodeAt(0));
  const pad4 = (n) => (4 - (n % 4)) % 4;
  const blockParts = [];
  const blockAt = new Int32Array(blocks + 1);
  let at = firstUnits.byteLength + pad4(firstUnits.byteLength) + 2 * (blocks + 1) * 4;
  for (let b = 0; b < blocks; b++) {
    const words = entries.slice(blockLo[b], blockLo[b + 1]);
    const n = words.length;
    const starts = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) starts[i + 1] = starts[i] + words[i].word.length;
    const unitArray = new Uint16Array(starts[n]);
    for (let i = 0; i < n; i++) for (let k = 0; k < words[i].word.length; k++) unitArray[starts[i] + k] = words[i].word.charCodeAt(k);
    const tags = Uint8Array.from(words, (e) => e.tag);
    const parts = [starts, Int32Array.from(words, (e) => e.freq), unitArray, tags].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    const bytes = parts.reduce((sum, p) => sum + p.length, 0);
    parts.push(Buffer.alloc(pad4(bytes)));
    blockAt[b] = at;
    at += bytes + pad4(bytes);
    blockParts.push(...parts);
  }
  blockAt[blocks] = at;
  const asBuffer = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const parts = [asBuffer(firstUnits), Buffer.alloc(pad4(firstUnits.byteLength)), asBuffer(Int32Array.from(blockLo)), asBuffer(blockAt), ...blockParts];
  const bodyHash = createHash('sha1');
  for (const p of parts) bodyHash.update(p);
  const header = Buffer.from(
    JSON.stringify({
      format: WORD_INDEX_FORMAT,
      dictSize: dict.length,
      dictSha1: createHash('sha1').update(dict).digest('hex'),
      dictMtimeMs,
      total,
      count,
      units,
      blocks,
      bodyBytes: at,
      tags: [...tagIds.keys()],
      bodySha1: bodyHash.digest('hex'),
    }),
    'utf8',
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  const prefix = WORD_INDEX_MAGIC.length + 4 + header.length;
  return Buffer.concat([Buffer.from(WORD_INDEX_MAGIC, 'latin1'), length, header, Buffer.alloc((8 - (prefix % 8)) % 8), ...parts]);
}
