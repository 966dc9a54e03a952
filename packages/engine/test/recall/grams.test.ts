// The lexical channel ranks with the words and their characters (text/grams.ts): a question cut into
// other words than its note (服务器 / 服务) still ranks that note first; the gates read the words only,
// so a note that shares nothing but characters with the question is never injected.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

const NOTES: Record<string, string> = {
  '2026-10-20-services.txt': diary('09:00', '部署记录', '服务都部署在东京机房。', '所有服务都部署在东京机房，由运维组值守。', ['部署']),
  '2026-10-20-frontend.txt': diary('09:00', '部署记录', '前端部署在大阪。', '前端代码部署在大阪，走 CDN。', ['部署']),
  '2026-10-20-dinner.txt': diary('19:00', '聚餐', '周六聚餐。', '周六在川菜馆聚餐，水煮鱼很好吃。', ['聚餐']),
};

async function engineWith(recall: Record<string, unknown>): Promise<Engine> {
  const dirs = tempDirs();
  for (const [path, text] of Object.entries(NOTES)) writeFileSync(join(dirs.diaryDir, path), text);
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, timeDecay: { enabled: false }, recall });
  await engine.index({ full: true });
  return engine;
}

describe('words and characters rank together', () => {
  const open: Engine[] = [];
  after(() => open.forEach((e) => e.close()));

  it('the note holding the question\'s characters ranks above one that shares only the word', async () => {
    const engine = await engineWith({ minCoverage: 0, minSpecificity: 0, minQueryInformation: 0, minTokenIdf: 0, hybridGate: { queryGate: 'off' } });
    open.push(engine);
    const r = await engine.recall('服务器部署在哪里', { k: 5 });
    assert.equal(r.hits[0]?.path, '2026-10-20-services.txt', r.hits.map((h) => h.path).join(', '));
    for (const h of r.hits) for (const m of h.matched) assert.ok(!m.token.startsWith('\u0001'), `a gram among the matched words: ${JSON.stringify(m.token)}`);
  });

  it('a note that shares characters but no word with the question is not injected', async () => {
    const engine = await engineWith({ minCoverage: 0, minSpecificity: 0, minQueryInformation: 0, minTokenIdf: 0, hybridGate: { queryGate: 'off' } });
    open.push(engine);
    // 鱼 and 好 are characters of the dinner note; 鱼竿 and 好用 are not its words.
    const r = await engine.recall('鱼竿好用', { k: 5 });
    assert.deepEqual(r.hits.map((h) => h.path), []);
    const removed = r.explain.gate.removals.filter((x) => x.gate === 'distinctive-term');
    assert.ok(removed.some((x) => x.detail.includes('characters')), JSON.stringify(r.explain.gate.removals));
  });
});
