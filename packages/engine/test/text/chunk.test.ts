import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { chunkText } from '../../src/text/chunk.ts';
import type { Chunk } from '../../src/types.ts';

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const splitsPair = (text: string, pos: number) => isHigh(text.charCodeAt(pos - 1)) && isLow(text.charCodeAt(pos));

function assertInvariants(text: string, size: number, chunks: Chunk[]): void {
  const covered = new Uint8Array(text.length);
  chunks.forEach((chunk, i) => {
    assert.equal(chunk.ord, i);
    assert.equal(chunk.text, text.slice(chunk.start, chunk.end));
    assert.ok(chunk.text.length > 0 && chunk.text.length <= size, `chunk ${i} has length ${chunk.text.length} > ${size}`);
    assert.ok(!/^\s|\s$/.test(chunk.text), `chunk ${i} starts or ends with whitespace`);
    assert.ok(!splitsPair(text, chunk.start) && !splitsPair(text, chunk.end), `chunk ${i} splits a surrogate pair`);
    if (i > 0) {
      assert.ok(chunk.start > chunks[i - 1]!.start, 'starts strictly increase');
      assert.ok(chunk.end > chunks[i - 1]!.end, 'ends strictly increase');
    }
    covered.fill(1, chunk.start, chunk.end);
  });
  for (let p = 0; p < text.length; p++) {
    if (!/\s/.test(text[p]!)) assert.equal(covered[p], 1, `char ${p} (${text[p]}) not covered`);
  }
}

const fragments = [
  '东京节点', '上限', '召回', '对话消息', '很长很长很长很长很长很长', 'sing-box', 'v0.2.6', 'api_key', '443',
  'word', 'hello world', '。', '！', '？', '；', '.', '. ', '!', '?', '，', '、', ',', ' ', '  ', '\n', '\n\n',
  '\n \n', '\t', '\u3000', '「引号」', '”', '……', '𠮷', '😀', '👍🏽', 'é', 'x',
];
const textArbitrary = fc.oneof(
  fc.array(fc.constantFrom(...fragments), { maxLength: 120 }).map((parts) => parts.join('')),
  fc.string({ unit: fc.constantFrom('中', '文', '。', ' ', '\n', 'a', '.', '𠮷', '\uD83D', '!'), maxLength: 400 }),
  fc.string({ maxLength: 300 }),
);

describe('chunkText invariants (generated inputs)', () => {
  it('slices, covers, respects size, starts increase, never splits a surrogate pair', () => {
    fc.assert(
      fc.property(textArbitrary, fc.integer({ min: 2, max: 120 }), fc.integer({ min: 0, max: 80 }), (text, size, overlap) => {
        assertInvariants(text, size, chunkText(text, { size, overlap }));
      }),
      { numRuns: 1500 },
    );
  });

  it('returns nothing for empty or whitespace-only text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(' ', '\n', '\t', '\u3000', '\r') }), (text) => {
        assert.deepEqual(chunkText(text, { size: 50, overlap: 10 }), []);
      }),
    );
  });
});

describe('chunkText cut points', () => {
  it('keeps short text in one chunk', () => {
    const chunks = chunkText('  只有一句话。  ', { size: 800, overlap: 120 });
    assert.equal(chunks.length, 1);
    assert.equal(chunks[0]!.text, '只有一句话。');
    assert.equal(chunks[0]!.start, 2);
  });

  it('prefers a paragraph end over a later sentence end', () => {
    const first = '第一段的第一句话。第一段的第二句话。第一段的第三句话。'; // 27 chars
    const second = '第二段的第一句话。第二段的第二句话。第二段的第三句话。';
    const text = `${first}\n\n${second}`;
    const [chunk] = chunkText(text, { size: 40, overlap: 0 });
    assert.equal(chunk!.text, first);
  });

  it('ends chunks at sentence ends when no paragraph end is in reach', () => {
    const sentence = '这是一个长度固定的句子。'; // 12 chars
    const text = sentence.repeat(10);
    const chunks = chunkText(text, { size: 30, overlap: 0 });
    for (const chunk of chunks) assert.ok(chunk.text.endsWith('。'), chunk.text);
    assert.deepEqual(
      chunks.map((c) => c.text.length),
      chunks.map(() => 24).slice(0, -1).concat(chunks.at(-1)!.text.length),
    );
  });

  it('treats ". " as a sentence end but not the dot inside v0.2.6 or node.js', () => {
    const text = 'Upgrade node.js to v0.2.6 today. Then restart the service. Check logs after that.';
    const chunks = chunkText(text, { size: 40, overlap: 0 });
    assert.equal(chunks[0]!.text, 'Upgrade node.js to v0.2.6 today.');
  });

  it('overlaps consecutive chunks from a sentence start, within the overlap budget', () => {
    const sentence = '这是一个长度固定的句子。'; // 12 chars
    const text = sentence.repeat(12);
    const chunks = chunkText(text, { size: 40, overlap: 15 });
    for (let i = 1; i < chunks.length; i++) {
      const overlap = chunks[i - 1]!.end - chunks[i]!.start;
      assert.ok(overlap > 0 && overlap <= 15, `overlap ${overlap}`);
      assert.ok(chunks[i]!.text.startsWith('这是'), chunks[i]!.text);
    }
  });

  it('splits an over-long sentence at a comma when it can, and still overlaps', () => {
    const clause = '没有句号的长从句内容,'; // 11 chars, ends with a comma
    const text = clause.repeat(30);
    const chunks = chunkText(text, { size: 50, overlap: 10 });
    assert.ok(chunks.length > 1);
    for (const chunk of chunks.slice(0, -1)) assert.ok(chunk.text.endsWith(','), chunk.text);
    for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i - 1]!.end > chunks[i]!.start);
  });

  it('hard-splits text without any break and never separates a surrogate pair', () => {
    const text = '𠮷'.repeat(200);
    const chunks = chunkText(text, { size: 31, overlap: 5 });
    assertInvariants(text, 31, chunks);
    for (const chunk of chunks) assert.ok(chunk.text.match(/[\uD800-\uDFFF]/u) === null);
  });

  it('caps the overlap at half the size so chunks always advance', () => {
    const text = '短句。'.repeat(100);
    const chunks = chunkText(text, { size: 20, overlap: 500 });
    assertInvariants(text, 20, chunks);
    for (let i = 1; i < chunks.length; i++) assert.ok(chunks[i - 1]!.end - chunks[i]!.start <= 10);
  });
});
