// The archive file: fenced bodies that read back byte for byte, a byte budget that evicts the
// oldest sections and says so in the head, oversized sections refused and counted, never cut.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addToArchive, emptyArchive, fenceFor, parseArchive, renderArchive, utf8Bytes, type ArchiveDoc } from '../../src/compaction/archive.ts';

const add = (doc: ArchiveDoc, id: string, body: string, maxBytes = 10_000, date = '2026-03-01') =>
  addToArchive(doc, { title: `标题 ${id}`, date, compactionId: id, body }, { maxBytes, sessionId: 's1' });

test('bodies that look like structure stay body: headings, fences, pipes read back unchanged', () => {
  const tricky = ['## §9 伪造的节 · 2026-01-01 · fake', '```', '| x | §3 |', '````', 'ok'].join('\n');
  let doc = add(emptyArchive(), 'c1', tricky).doc;
  doc = add(doc, 'c2', '第二节').doc;
  const text = renderArchive(doc, 's1', 10_000);
  const back = parseArchive(text);
  assert.deepEqual(back.sections.map((s) => [s.n, s.compactionId, s.body]), [
    [1, 'c1', tricky],
    [2, 'c2', '第二节'],
  ]);
  assert.equal(fenceFor('a ```` b'), '`````', 'one backtick longer than the longest run');
  assert.equal(fenceFor('plain'), '```');
  // A file saved with CRLF (an editor) still parses to the same sections.
  assert.deepEqual(parseArchive(text.replace(/\n/g, '\r\n')).sections.map((s) => s.body), [tricky, '第二节']);
});

test('the same compaction is archived once', () => {
  const once = add(emptyArchive(), 'c1', '内容');
  const twice = add(once.doc, 'c1', '内容');
  assert.equal(twice.outcome, 'duplicate');
  assert.equal(twice.doc.sections.length, 1);
});

test('over the byte budget the oldest sections go, and the head says how many', () => {
  const maxBytes = 2_000;
  let doc = emptyArchive();
  for (let i = 1; i <= 8; i++) doc = add(doc, `c${i}`, '内容'.repeat(60), maxBytes, `2026-03-0${i}`).doc;
  const text = renderArchive(doc, 's1', maxBytes);
  assert.ok(utf8Bytes(text) <= maxBytes, `${utf8Bytes(text)} bytes`);
  assert.ok(doc.head.evicted > 0);
  assert.equal(doc.sections.at(-1)!.compactionId, 'c8', 'the newest survives');
  assert.equal(doc.sections[0]!.compactionId, `c${doc.head.evicted + 1}`, 'the oldest went first');
  assert.match(text, new RegExp(`已按体积淘汰 ${doc.head.evicted} 节 · 最新 2026-03-0${doc.head.evicted}`));
  assert.deepEqual(parseArchive(text).head, doc.head, 'the counters survive a round trip');
});

test('a section larger than the budget is refused and counted; existing sections are untouched', () => {
  const maxBytes = 2_000;
  const first = add(emptyArchive(), 'c1', '保留的内容', maxBytes);
  const before = renderArchive(first.doc, 's1', maxBytes);
  const huge = '很长'.repeat(2_000);
  const refused = add(first.doc, 'c2', huge, maxBytes);
  assert.equal(refused.outcome, 'refused');
  assert.deepEqual(refused.doc.sections, first.doc.sections);
  assert.equal(refused.doc.head.refused, 1);
  assert.ok(refused.doc.head.refusedBytes >= utf8Bytes(huge));
  const after = renderArchive(refused.doc, 's1', maxBytes);
  assert.match(after, /有 1 条超 2000 字节上限未写入 · 合计 \d+ 字节/);
  assert.ok(!after.includes('很长'), 'never written in part');
  const bodyOf = (text: string) => text.slice(text.indexOf('## §1'));
  assert.equal(bodyOf(after), bodyOf(before), 'only the head changed');
});
