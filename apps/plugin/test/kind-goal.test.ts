// kind and goal (seed 004) through the simulated host's tools: engram_write takes them, engram_search
// filters by kind and shows kind and goal, and the lean set reaches both (kind: in q; a Meta line in
// the saved text, since its schema stays as small as it was).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { diaryText, loadPlugin, makeCorpus } from './helpers.ts';

interface Hit {
  docId: string;
  title: string;
  kind?: string;
  goal?: string;
}

// Other topics, so that the words of the test's memories stay distinctive in the corpus.
const OTHER_TOPICS = ['菜谱', '球赛', '花园', '画展', '钢琴', '围棋', '露营', '瑜伽', '茶叶', '摄影课', '书法', '滑雪'];

function corpus() {
  const c = makeCorpus();
  OTHER_TOPICS.forEach((topic, i) => writeFileSync(join(c.diaryDir, `2026-01-${String(i + 1).padStart(2, '0')}-${topic}.txt`), diaryText(`${topic}记录`, `关于${topic}的一点记录,第 ${i + 1} 篇。`)));
  return c;
}

type Tools = { call(name: string, args: string): Promise<{ value?: unknown; text: string; error?: unknown }> };
async function call(tools: Tools, name: string, args: Record<string, unknown>) {
  const r = await tools.call(name, JSON.stringify(args));
  assert.equal(r.error, undefined, r.text);
  return r;
}

test('engram_write takes kind and goal; engram_search filters by kind and shows both', async (t) => {
  const c = corpus();
  const { host } = await loadPlugin(t, { corpus: c });
  const tools = host.tools!;
  const task = await call(tools, 'engram_write', { title: '缓存迁移到 valkey', content: '把 redis 缓存整体迁到 valkey,先迁会话缓存。\n\nTag: valkey, redis', kind: 'todo', goal: '下周五前完成 valkey 切换' });
  const path = (task.value as { path: string }).path;
  assert.match(readFileSync(join(c.diaryDir, path), 'utf8'), /; kind=task; goal=下周五前完成 valkey 切换\n$/);
  await call(tools, 'engram_write', { title: 'valkey 选型偏好', content: '缓存服务优先选 valkey,不再用 memcached。\n\nTag: valkey, 缓存', kind: 'pref' });

  const all = (await call(tools, 'engram_search', { query: 'valkey 缓存' })).value as { hits: Hit[] };
  const titles = all.hits.map((h) => h.title);
  assert.ok(titles.includes('缓存迁移到 valkey') && titles.includes('valkey 选型偏好'), JSON.stringify(titles));
  const tasks = await call(tools, 'engram_search', { query: 'valkey 缓存', kind: 'task' });
  const hits = (tasks.value as { hits: Hit[] }).hits;
  assert.deepEqual(hits.map((h) => [h.title, h.kind, h.goal]), [['缓存迁移到 valkey', 'task', '下周五前完成 valkey 切换']]);
  assert.match(tasks.text, /缓存迁移到 valkey〔task〕/);
  assert.match(tasks.text, /目标:下周五前完成 valkey 切换/);
  const prefs = (await call(tools, 'engram_search', { query: 'valkey 缓存', kind: 'preference' })).value as { hits: Hit[] };
  assert.deepEqual(prefs.hits.map((h) => h.title), ['valkey 选型偏好'], 'an alias in the filter');
  const schema = tools.schemas().find((s) => s.name === 'engram_write')!;
  assert.ok('kind' in (schema.parameters as { properties: Record<string, unknown> }).properties);
});

test('lean profile: kind: in q filters; a Meta line in the saved text gives kind and goal', async (t) => {
  const c = corpus();
  const { host } = await loadPlugin(t, { corpus: c, config: { tools: { profile: 'lean' } } });
  const tools = host.tools!;
  const saved = await call(tools, 'engram_save', { content: '[10:00] 发布回滚演练\n\n> 每次发布前在预发环境演练回滚。\n\n步骤见 runbook,回滚脚本在 deploy/rollback.sh。\n\nTag: 发布, 回滚\nMeta: kind=task; goal=失败时 5 分钟内回到上一版' });
  const path = ((saved.value as { result: { path: string } }).result).path;
  assert.match(readFileSync(join(c.diaryDir, path), 'utf8'), /kind=task; goal=失败时 5 分钟内回到上一版\n$/);
  await call(tools, 'engram_save', { content: '[11:00] 回滚脚本的教训\n\n> 回滚脚本要先停流量。\n\n上次回滚没有先停流量,deploy/rollback.sh 执行到一半被新请求打断。\n\nTag: 回滚, 教训\nMeta: kind=lesson' });
  const r = await call(tools, 'engram', { q: '回滚 kind:task' });
  const v = r.value as { layer: string; result: { hits: Hit[] } };
  assert.equal(v.layer, 'search');
  assert.deepEqual(v.result.hits.map((h) => h.title), ['发布回滚演练']);
  const lessons = (await call(tools, 'engram', { q: '回滚 kind:lesson' })).value as { result: { hits: Hit[] } };
  assert.deepEqual(lessons.result.hits.map((h) => h.title), ['回滚脚本的教训']);
});
