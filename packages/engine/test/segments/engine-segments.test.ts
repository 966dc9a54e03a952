// Engine.locate and Engine.detail on real diary files.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';
import { LONG_MEMORY } from './fixtures.ts';

async function open(t: { after(fn: () => unknown): void }) {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  writeFileSync(join(dirs.diaryDir, '2026-10-25-incident-0a1b2c3d.txt'), `${LONG_MEMORY}\n`);
  const engine = await openTestEngine(dirs);
  t.after(() => engine.close());
  const doc = (await engine.list()).find((m) => m.title.includes('部署事故'))!;
  assert.ok(doc, 'the long memory is indexed');
  return { engine, doc };
}

test('search → locate → detail: two segments of a long memory instead of all of it', async (t) => {
  const { engine, doc } = await open(t);
  const found = await engine.recall('zstd 多帧解压');
  assert.equal(found.hits[0]?.docId, doc.docId);

  const located = await engine.locate(doc.docId, 'zstd 多帧解压');
  assert.equal(located.docId, doc.docId);
  assert.equal(located.query, 'zstd 多帧解压');
  assert.ok(located.segmentCount >= 8);
  assert.equal(located.chars, LONG_MEMORY.length + 1);
  const top = located.hits[0]!;
  assert.match(top.heading, /^故障排查/);
  assert.match(top.preview, /zstd/);

  const part = await engine.detail(doc.docId, [top.index]);
  assert.equal(part.whole, false);
  assert.deepEqual(part.segments.map((s) => s.index), [top.index]);
  assert.match(part.text, /zstd/);
  assert.ok(part.text.length < part.chars / 4, `${part.text.length} of ${part.chars} characters`);

  const two = await engine.detail(doc.path, [top.index + 1, 0, top.index + 1]);
  assert.deepEqual(two.segments.map((s) => s.index), [0, top.index + 1], 'by path too; sorted, without repeats');
  assert.match(two.text, /\n…\n/, 'the gap between non-adjacent segments is marked');

  const whole = await engine.detail(doc.docId);
  assert.equal(whole.whole, true);
  assert.equal(whole.text, `${LONG_MEMORY}\n`);
  assert.equal(whole.segments.length, whole.segmentCount);
  assert.equal(whole.segments.reduce((n, s) => n + s.chars, 0), whole.chars, 'the segments add up to the memory');
});

test('locate and detail refuse what does not exist, with a code and a way forward', async (t) => {
  const { engine, doc } = await open(t);
  await assert.rejects(engine.detail(doc.docId, [999]), (e: { code?: string; message: string }) => e.code === 'bad-segment' && /it has \d+ segments \(0–\d+\)/.test(e.message));
  await assert.rejects(engine.detail(doc.docId, [1.5]), { code: 'bad-segment' });
  await assert.rejects(engine.locate('no-such-memory', 'zstd'), { code: 'not-found' });
  await assert.rejects(engine.detail('no-such-memory'), { code: 'not-found' });
  await assert.rejects(engine.locate(doc.docId, '  '), { code: 'bad-query' });
  const none = await engine.locate(doc.docId, 'kubernetes');
  assert.deepEqual(none.hits, []);
  assert.ok(none.segmentCount > 0);
});

test('a short memory is one segment', async (t) => {
  const { engine } = await open(t);
  const short = (await engine.list()).find((m) => m.title === '周末聚餐地点')!;
  const located = await engine.locate(short.docId, '川菜馆');
  assert.equal(located.segmentCount, 1);
  assert.equal(located.hits[0]?.index, 0);
});
