// Cache friendliness over a long coding session: the model works for many steps, ticks todos, calls
// tools; the person speaks rarely. The system prompt must stay byte-identical (so a provider's prefix
// cache keeps hitting) until someone edits a resident memory, and each request should only append
// to the previous one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefixStability, systemPromptsIdentical, type ScriptStep } from '@engram/dsh-sim';
import { loadPlugin, recallMessages, snapshotMessages } from './helpers.ts';

const TASKS = ['写周报', '检查服务器备份策略', '整理东京节点端口', '复盘数据库迁移', '提交发票报销', '更新日语学习进度'];

/** One turn of `steps` model steps: todo progress, searches and status calls, then a reply. */
function codingTurn(turn: number, steps: number): ScriptStep[] {
  const script: ScriptStep[] = [];
  for (let i = 0; i < steps - 1; i++) {
    if (i % 3 === 0) {
      const done = Math.min(TASKS.length - 1, turn + Math.floor(i / 3));
      const todos = TASKS.map((content, k) => ({ content, status: k < done ? 'completed' : k === done ? 'in_progress' : 'pending' }));
      script.push({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] });
    } else if (i % 3 === 1) {
      script.push({ toolCalls: [{ name: 'engram_search', arguments: { query: TASKS[(turn + i) % TASKS.length] } }] });
    } else {
      script.push({ toolCalls: [{ name: 'engram_list', arguments: { limit: 3 } }] });
    }
  }
  script.push({ text: `第 ${turn + 1} 轮完成` });
  return script;
}

const QUESTIONS = ['周报怎么写?', '服务器备份要注意什么', '东京节点端口怎么处理', '数据库迁移有什么教训', '发票报销规则是什么'];

async function runSession(t: Parameters<typeof loadPlugin>[0], mode: 'message' | 'context') {
  const loaded = await loadPlugin(t, {
    host: { assembleAt: mode === 'context' ? 'after-user-message' : 'before-pre-step' },
    config: { inject: { mode }, runtime: { memories: [{ text: '回答一律用简体中文', critical: true }] } },
  });
  const session = loaded.host.createSession();
  for (let turn = 0; turn < QUESTIONS.length; turn++) await session.userTurn(QUESTIONS[turn]!, codingTurn(turn, 10));
  return { ...loaded, session };
}

for (const mode of ['message', 'context'] as const) {
  test(`50-step coding session (${mode} mode): system prompt byte-identical, prefix appended to, until a memory edit`, async (t) => {
    const { host, engine, session } = await runSession(t, mode);
    const requests = [...session.requests];
    assert.equal(requests.length, 50);
    assert.ok(systemPromptsIdentical(requests), 'the system prompt changed during the session');
    const stability = prefixStability(requests);
    t.diagnostic(`${mode} mode: ${stability.stable}/${stability.compared} requests keep the previous request as their prefix (share ${stability.share.toFixed(3)})`);
    assert.equal(stability.share, 1, `prefix breaks: ${JSON.stringify(stability.breaks)}`);
    // The session really recalled: the question blocks and phase-change blocks are there.
    const recalled = host.logs.filter((l) => l.message.startsWith('recall ') && / hits=[1-9]/.test(l.message)).length;
    assert.ok(recalled >= QUESTIONS.length, `recalls with hits: ${recalled}`);
    if (mode === 'message') assert.ok(recallMessages(requests.at(-1)!).length >= 3);
    else assert.ok(snapshotMessages(requests.at(-1)!).some((m) => m.content.includes('<engram-recall')));

    // Editing a resident memory changes the system prompt once, at the next request, and only then.
    await engine.saveSettings({ runtime: { memories: [{ text: '回答一律用简体中文', critical: true }, { text: '周五不开会', critical: false }] } });
    await session.userTurn('继续', codingTurn(0, 3));
    const after = prefixStability(session.requests);
    assert.equal(after.breaks.length, 1);
    assert.equal(after.breaks[0]!.reason, 'system');
    assert.equal(after.breaks[0]!.index, 50, 'the break is the first request after the edit');
    assert.ok(systemPromptsIdentical(session.requests.slice(50)));
    t.diagnostic(`${mode} mode with one memory edit: share ${after.share.toFixed(3)} over ${after.compared} comparisons`);
    await host.settle();
    host.assertClean();
  });
}
