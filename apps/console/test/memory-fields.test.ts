// memories.fields and memories.saveFields through tRPC on a real engine: the structured editor's
// save is spliced into the file (every other byte kept), re-indexed, refused on a stale hash, and a
// field the engine would read otherwise is answered as a problem with nothing written.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TRPCError } from '@trpc/server';
import { fieldProblems, sameFields, tagList } from '../src/components/notebook/fields-check.ts';
import { openHarness } from './harness.ts';

const RAW = '\ufeff[09:30] 端口规划\r\n\r\n> 东京节点用 8443。\r\n\r\n旧端口被占用。\r\n\r\nTags：网络、东京\r\nMeta: pinned=true\r\n';

async function seeded(t: Parameters<typeof openHarness>[0]) {
  const h = await openHarness(t);
  const file = join(h.root, 'diary', '2026-10-24-port.txt');
  writeFileSync(file, RAW);
  await h.engine.index();
  const id = (await h.api().search.memories({ query: '8443' })).items[0]!.docId;
  return { h, file, id };
}

test('fields of a memory; a save with nothing changed writes nothing', async (t) => {
  const { h, file, id } = await seeded(t);
  const f = await h.api().memories.fields({ id });
  assert.equal(f.editable, true);
  assert.deepEqual(f.fields, { title: '端口规划', tags: ['网络', '东京'], body: '> 东京节点用 8443。\n\n旧端口被占用。' });
  const res = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields });
  assert.ok(res.ok && !res.changed);
  assert.equal(readFileSync(file, 'utf8'), RAW);
});

test('a changed body is spliced in with CRLF, the Tags line and the Meta line kept, and is searchable', async (t) => {
  const { h, file, id } = await seeded(t);
  const f = await h.api().memories.fields({ id });
  const res = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields, body: `${f.fields.body}\n\n## 结论\n改用 9443 端口。` });
  assert.ok(res.ok && res.changed);
  assert.equal(readFileSync(file, 'utf8'), '\ufeff[09:30] 端口规划\r\n\r\n> 东京节点用 8443。\r\n\r\n旧端口被占用。\r\n\r\n## 结论\r\n改用 9443 端口。\r\n\r\nTags：网络、东京\r\nMeta: pinned=true\r\n');
  assert.equal(res.memory.pinned, true, 'still pinned');
  assert.deepEqual((await h.api().search.memories({ query: '9443' })).items.map((m) => m.docId), [id]);
});

test('a stale hash is a CONFLICT; a body that would read as tags is a problem; neither writes', async (t) => {
  const { h, file, id } = await seeded(t);
  const f = await h.api().memories.fields({ id });
  await assert.rejects(h.api().memories.saveFields({ id, expectedHash: 'stale', ...f.fields, title: '新标题' }), (e: unknown) => e instanceof TRPCError && e.code === 'CONFLICT');
  const res = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields, tags: [], body: '正文。\n\nTag: 其实是正文' });
  assert.deepEqual(res, { ok: false, problem: { field: 'body', code: 'body-reads-as-tags' } });
  assert.equal(readFileSync(file, 'utf8'), RAW);
});

test('the editor\'s own checks: on the field they concern, before anything is sent', () => {
  const base = { title: '端口规划', tags: '网络，东京', body: '正文。' };
  assert.deepEqual(fieldProblems(base, base), {});
  assert.deepEqual(fieldProblems({ ...base, title: ' ' }, base), { title: 'edit.problem.title-empty' });
  assert.deepEqual(fieldProblems({ ...base, title: '> 摘要' }, base), { title: 'edit.problem.title-reads-as-other' });
  assert.deepEqual(fieldProblems({ ...base, tags: '', body: '正文。\n标签：甲' }, base), { body: 'edit.problem.body-reads-as-tags' });
  assert.deepEqual(fieldProblems({ ...base, body: '正文。\n标签：甲' }, base), {}, 'with tags the line stays body');
  assert.deepEqual(fieldProblems({ ...base, tags: '', body: '正文。\nMeta: pinned=true' }, base), { body: 'edit.problem.body-reads-as-meta' });
  assert.deepEqual(fieldProblems({ title: '', tags: '', body: 'x' }, { title: '', tags: '', body: '' }), {}, 'a memory without a title may stay so');
  assert.deepEqual(tagList(' 聚餐，川菜馆、订位; 聚餐 ,'), ['聚餐', '川菜馆', '订位']);
  assert.ok(sameFields(base, { ...base, tags: '网络, 东京', body: '正文。\n' }), 'the same tags however separated');
  assert.ok(!sameFields(base, { ...base, tags: '网络' }));
});

test('kind and goal saved from the fields editor rewrite only the Meta line and reach the index', async (t) => {
  const { h, file, id } = await seeded(t);
  const f = await h.api().memories.fields({ id });
  assert.equal(f.fields.kind, undefined, 'this file has no kind yet');
  const res = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields, kind: 'task', goal: '东京节点换到 9443' });
  assert.ok(res.ok && res.changed);
  assert.equal(readFileSync(file, 'utf8'), RAW.replace('Meta: pinned=true', 'Meta: pinned; kind=task; goal=东京节点换到 9443'));
  assert.equal(res.memory.kind, 'task');
  assert.equal(res.memory.goal, '东京节点换到 9443');
  const again = await h.api().memories.fields({ id });
  assert.deepEqual([again.fields.kind, again.fields.goal], ['task', '东京节点换到 9443']);
});

test('a .md memory is edited as fields too: front-matter keys in their style, the heading, every other byte kept', async (t) => {
  const h = await openHarness(t);
  const file = join(h.root, 'diary', '2026-10-25-osaka.md');
  const raw = '\ufeff---\r\nid: "0a1b2c3d"\r\ntitle: "端口规划: 大阪"\r\ndescription: "大阪节点用 9443。"\r\ntags:\r\n  - 网络\r\n  - 大阪\r\nworkspace: global\r\n---\r\n\r\n# 端口规划: 大阪\r\n\r\n旧端口 8080 被占用。\r\n';
  writeFileSync(file, raw);
  await h.engine.index();
  const id = (await h.api().search.memories({ query: '8080' })).items[0]!.docId;
  const f = await h.api().memories.fields({ id });
  assert.equal(f.editable, true);
  assert.deepEqual(f.fields, { title: '端口规划: 大阪', tags: ['网络', '大阪'], body: '旧端口 8080 被占用。' });
  const same = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields });
  assert.ok(same.ok && !same.changed);
  const res = await h.api().memories.saveFields({ id, expectedHash: f.contentHash, ...f.fields, tags: ['网络', '大阪', '端口'], title: '端口规划: 大阪节点' });
  assert.ok(res.ok && res.changed);
  assert.equal(readFileSync(file, 'utf8'), raw.replaceAll('端口规划: 大阪', '端口规划: 大阪节点').replace('  - 大阪\r\n', '  - 大阪\r\n  - 端口\r\n'));
  assert.deepEqual(res.memory.tags, ['网络', '大阪', '端口']);
  assert.equal(res.memory.title, '端口规划: 大阪节点');
  assert.equal(res.memory.summary, '大阪节点用 9443。', 'the description key is untouched');
});

test('the editor\'s own checks follow a .md front matter: a Tag-like last line adds tags even with tags; title and Meta-like lines are free', async (t) => {
  const base = { title: '端口规划', tags: '网络', body: '正文。' };
  assert.deepEqual(fieldProblems({ ...base, body: '正文。\n标签：甲' }, base, 'front-matter'), { body: 'edit.problem.body-reads-as-tags-md' });
  assert.deepEqual(fieldProblems({ ...base, tags: '', body: '正文。\nMeta: pinned=true' }, base, 'front-matter'), {}, 'a front matter holds the metadata: the line is body');
  assert.deepEqual(fieldProblems({ ...base, title: '> 不是摘要' }, base, 'front-matter'), {}, 'the title is a YAML key, not a line');
  assert.deepEqual(fieldProblems({ ...base, title: ' ' }, base, 'front-matter'), { title: 'edit.problem.title-empty' });
  // The server says which layout a memory has.
  const h = await openHarness(t);
  writeFileSync(join(h.root, 'diary', '2026-10-26-fm.md'), '---\ntitle: 有前言\n---\n正文 7001。\n');
  writeFileSync(join(h.root, 'diary', '2026-10-26-plain.md'), '# 没有前言\n\n正文 7002。\n');
  await h.engine.index();
  const layoutOf = async (q: string) => (await h.api().memories.fields({ id: (await h.api().search.memories({ query: q })).items[0]!.docId })).layout;
  assert.equal(await layoutOf('7001'), 'front-matter');
  assert.equal(await layoutOf('7002'), 'lines');
});
