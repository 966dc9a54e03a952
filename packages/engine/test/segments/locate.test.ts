import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locate, previewAround } from '../../src/segments/locate.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { LONG_MEMORY } from './fixtures.ts';



for (const kind of ['auto', 'gram'] as const) {
  const tokenizer = createTokenizer({ kind });

  test(`locate finds the section of a long memory that holds the answer (${tokenizer.engine})`, () => {
    assert.ok(LONG_MEMORY.length > 4000);
    const { segments, hits } = locate(LONG_MEMORY, 'zstd 多帧解压', tokenizer);
    assert.ok(segments.length >= 8, `${segments.length} segments`);
    const top = hits[0]!;
    assert.match(top.heading, /^故障排查/);
    assert.ok(top.matched.includes('zstd'));
    assert.ok(LONG_MEMORY.slice(top.start, top.end).includes('zstd'));
    assert.match(top.preview, /zstd/, 'the preview shows the hit, not the segment opening');
    assert.ok(top.preview.length <= 162, `${top.preview.length}`);
    assert.equal(top.chars, top.end - top.start);
    assert.ok(hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score), 'ranked');

    const path = locate(LONG_MEMORY, '/srv/app/deploy', tokenizer).hits[0]!;
    assert.equal(path.index, top.index, 'a path is found as a whole word');
    const review = locate(LONG_MEMORY, '复盘', tokenizer).hits[0]!;
    assert.match(review.heading, /^复盘/);
  });

  test(`a query that matches nothing locates nothing (${tokenizer.engine})`, () => {
    assert.deepEqual(locate(LONG_MEMORY, 'kubernetes helm', tokenizer).hits, []);
    assert.deepEqual(locate('', 'zstd', tokenizer), { segments: [], hits: [] });
    assert.deepEqual(locate(LONG_MEMORY, '', tokenizer).hits, []);
  });
}

test('the preview is centred on the first hit and marks what it cut', () => {
  const text = `${'开'.repeat(300)}关键命令 pnpm install 在这里${'尾'.repeat(300)}`;
  const p = previewAround(text, ['pnpm'], 160);
  assert.ok(p.startsWith('…') && p.endsWith('…'));
  const at = p.indexOf('pnpm');
  assert.ok(Math.abs(at - (p.length - 4) / 2) < 10, `centred (${at} of ${p.length})`);
  assert.equal(previewAround('短文本 pnpm', ['pnpm'], 160), '短文本 pnpm', 'nothing to cut');
  assert.equal(previewAround(`${'a'.repeat(200)}`, ['zzz'], 160), `${'a'.repeat(160)}…`, 'no hit: the opening');
  const emoji = previewAround(`${'😀'.repeat(200)}pnpm${'😀'.repeat(200)}`, ['pnpm'], 161);
  assert.doesNotMatch(emoji, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/, 'no broken surrogate');
});
