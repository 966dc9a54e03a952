// kind and goal through the engine (seed 004): written by the write API (or a Meta line in the text),
// indexed (goal as its own field, weighted between tags and body), named on every recall hit, and a
// search filter.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recallJson } from '../../src/cli/output.ts';
import { filterHits, parseInlineFilters } from '../../src/search/filters.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

/** A few unrelated memories around the ones a test writes, so that its words are rare enough to pass the gates. */
async function opened() {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  return { dirs, engine };
}

test('a goal match ranks above the same words in the body, and the hit names its kind, goal and the goal field', async () => {
  const { engine } = await opened();
  try {
    // Bodies of the same length; the words 蓝鲸计划上线 are in one memory's goal and in the other's body.
    const inGoal = await engine.write({ title: '会议室预订', content: '周三下午会议室改为线上预订。', summary: '周会', tags: ['周会'], meta: { kind: 'task', goal: '蓝鲸计划上线' } });
    const inBody = await engine.write({ title: '报销单据', content: '报销单据改用电子版。蓝鲸计划上线', summary: '周会', tags: ['周会'] });
    assert.ok(!inGoal.merged && !inBody.merged);
    const r = await engine.recall('蓝鲸计划上线', { k: 10 });
    const order = r.hits.map((h) => h.docId);
    assert.ok(order.includes(inGoal.docId) && order.includes(inBody.docId), JSON.stringify(r.hits.map((h) => h.title)));
    assert.ok(order.indexOf(inGoal.docId) < order.indexOf(inBody.docId), 'the goal match comes first');
    const hit = r.hits.find((h) => h.docId === inGoal.docId)!;
    assert.equal(hit.kind, 'task');
    assert.equal(hit.goal, '蓝鲸计划上线');
    assert.ok(hit.matched.some((m) => m.fields.includes('goal')), JSON.stringify(hit.matched));
    const json = recallJson(r).hits.find((h) => h.docId === inGoal.docId)!;
    assert.deepEqual([json.kind, json.goal], ['task', '蓝鲸计划上线'], 'engram recall --json names them too');
    const other = r.hits.find((h) => h.docId === inBody.docId)!;
    assert.equal(other.kind, '');
    assert.ok(!other.matched.some((m) => m.fields.includes('goal')));
  } finally {
    await engine.close();
  }
});

test('kind filters a search (aliases on either side); the listing carries kind and goal', async () => {
  const { engine } = await opened();
  try {
    const task = await engine.write({ title: '缓存迁移', content: '把 redis 缓存迁到 valkey。', tags: ['redis', 'valkey'], meta: { kind: 'todo', goal: '下周五前完成 valkey 切换' } });
    const pref = await engine.write({ title: '缓存选型偏好', content: '缓存优先选 valkey,不用 memcached。', tags: ['valkey'], meta: { kind: 'preference' } });
    const r = await engine.recall('valkey 缓存', { k: 10 });
    assert.ok(r.hits.length >= 2);
    assert.deepEqual(filterHits(r.hits, { kind: 'task' }, 10).map((h) => h.docId), [task.docId]);
    assert.deepEqual(filterHits(r.hits, parseInlineFilters('valkey kind:pref').filter, 10).map((h) => h.docId), [pref.docId]);
    assert.deepEqual(filterHits(r.hits, { kind: 'preference' }, 10).map((h) => h.docId), [pref.docId], 'an alias in the filter');
    assert.deepEqual(filterHits(r.hits, { kind: 'lesson' }, 10), []);
    const listed = await engine.list({});
    const row = listed.find((m) => m.docId === task.docId)!;
    assert.equal(row.kind, 'task', 'todo is written as task');
    assert.equal(row.goal, '下周五前完成 valkey 切换');
  } finally {
    await engine.close();
  }
});

test('a Meta line in the written text gives kind and goal (not workspace); an unknown kind is kept with a warning; a pin keeps the file\'s own word', async () => {
  const { dirs, engine } = await opened();
  try {
    const text = '[10:00] 发布回滚演练\n\n> 每次发布前演练回滚。\n\n步骤见 runbook。\n\nTag: 发布, 回滚\nMeta: kind=task; goal="失败时 5 分钟内回到上一版; 不丢数据"; ws=ws-other\n';
    const r = await engine.write({ content: text, meta: { workspace: 'ws-mine' } });
    const raw = readFileSync(join(dirs.diaryDir, r.path), 'utf8');
    assert.match(raw, /\nMeta: ws=ws-mine; kind=task; goal="失败时 5 分钟内回到上一版; 不丢数据"\n$/);
    assert.ok(!raw.includes('ws-other'));
    const d = (await engine.read(r.docId))!;
    assert.equal(d.goal, '失败时 5 分钟内回到上一版; 不丢数据');

    const idea = await engine.write({ title: '一个想法', content: '也许可以把索引放进内存。', tags: ['索引'], meta: { kind: 'idea' } });
    assert.ok(idea.warnings.some((w) => /unknown kind "idea" kept as written/.test(w)), idea.warnings.join('\n'));
    assert.match(readFileSync(join(dirs.diaryDir, idea.path), 'utf8'), /\nMeta: kind=idea\n$/);
    const ideaRow = (await engine.list({})).find((m) => m.docId === idea.docId)!;
    assert.equal(ideaRow.kind, 'idea');

    // A hand-written alias stays as written when the Meta line is rewritten for a pin.
    const hand = await engine.write({ title: '编辑器偏好', content: '缩进用两个空格。\n\nTag: 编辑器\nMeta: kind=偏好' });
    assert.match(readFileSync(join(dirs.diaryDir, hand.path), 'utf8'), /\nMeta: kind=pref\n$/, 'a writer writes the short name');
    const file = join(dirs.diaryDir, hand.path);
    writeFileSync(file, readFileSync(file, 'utf8').replace('kind=pref', 'kind=偏好'));
    await engine.index({ paths: [hand.path] });
    await engine.updateMeta(hand.docId, { pinned: true });
    assert.match(readFileSync(file, 'utf8'), /\nMeta: pinned; kind=偏好\n$/);
    assert.equal((await engine.list({})).find((m) => m.docId === hand.docId)!.kind, 'pref');
  } finally {
    await engine.close();
  }
});

test('a write merged into an older memory gives it the kind and goal it lacked; one that has its own keeps them', async () => {
  const { dirs, engine } = await opened();
  try {
    const body = '发布前在预发环境执行 deploy/rollback.sh 演练一次回滚,确认五分钟内能回到上一版。';
    const first = await engine.write({ title: '回滚演练', content: body, tags: ['回滚'] });
    const again = await engine.write({ title: '回滚演练记录', content: `${body}这次也通过了。`, tags: ['回滚'], meta: { kind: 'task', goal: '每次发布前都演练' } });
    assert.equal(again.merged, true, JSON.stringify(again));
    assert.equal(again.docId, first.docId);
    assert.match(readFileSync(join(dirs.diaryDir, first.path), 'utf8'), /\nMeta: kind=task; goal=每次发布前都演练\n$/);
    assert.equal((await engine.list({})).find((m) => m.docId === first.docId)!.kind, 'task', 're-indexed');
    const third = await engine.write({ title: '回滚演练第三次', content: `${body}这次也通过了。`, tags: ['回滚'], meta: { kind: 'lesson', goal: '别的目标' } });
    assert.equal(third.merged, true);
    assert.ok(third.warnings.some((w) => /keeps its own kind \/ goal/.test(w)), third.warnings.join('\n'));
    assert.match(readFileSync(join(dirs.diaryDir, first.path), 'utf8'), /\nMeta: kind=task; goal=每次发布前都演练\n$/);
  } finally {
    await engine.close();
  }
});

test('a semantic write block whose text ends with a Meta line writes its kind and goal', async () => {
  const { dirs, engine } = await opened();
  try {
    const reply = '答完了。\n\n<<<DailyNoteStart>>>\ncommand: create\ntitle: 回滚演练流程\ntags: 回滚, 发布\n\n[21:14] 回滚演练流程\n\n> 每次发布前在预发环境演练回滚。\n\n演练用 deploy/rollback.sh,五分钟内要回到上一版。\n\nTag: 回滚, 发布\nMeta: kind=task; goal=五分钟内回到上一版\n<<<DailyNoteEnd>>>\n';
    const r = await engine.applyNoteBlocks(reply, new Set());
    assert.deepEqual(r.errors, []);
    const path = r.results[0]!.path!;
    assert.match(readFileSync(join(dirs.diaryDir, path), 'utf8'), /\nTag: 回滚, 发布\nMeta: kind=task; goal=五分钟内回到上一版\n$/);
  } finally {
    await engine.close();
  }
});

test('a full rebuild indexes the goal as a write does: the goal word still matches in the goal field afterwards', async () => {
  const { engine } = await opened();
  try {
    const written = await engine.write({ title: '会议室预订', content: '周三下午会议室改为线上预订。', summary: '周会', tags: ['周会'], meta: { kind: 'task', goal: '蓝鲸计划上线' } });
    const goalFields = async () => (await engine.recall('蓝鲸计划上线', { k: 10 })).hits.find((h) => h.docId === written.docId)?.matched.filter((m) => m.fields.includes('goal')).length ?? 0;
    const before = await goalFields();
    assert.ok(before > 0, 'after the write');
    await engine.index({ full: true });
    assert.equal(await goalFields(), before, 'after a full rebuild');
  } finally {
    engine.close();
  }
});
