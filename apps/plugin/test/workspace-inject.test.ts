// The workspace layer's injection choice (workspace.inject): hint (default), index, full, off.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { prefixStability, systemPromptsIdentical, type SimSession } from '@engram/dsh-sim';
import { previewWorkspaceLevels, WorkspaceRegistry, type Engine } from '@engram/engine';
import { WORKSPACE_HINT } from '../src/host/core/texts.ts';
import { loadPlugin } from './helpers.ts';

function folder(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), name);
  writeFileSync(join(dir, `${name}.config.json`), '{}');
  return dir;
}

const LONG_SUMMARY = '这一段摘要故意写得很长,超过目录模式每条只给一行的长度上限,用来区分目录模式和全量模式:目录模式只显示开头并以省略号结尾,全量模式则把整段摘要原样放进系统提示词,末尾的暗号是青金石。';

/** Two workspaces with their own memories (one pinned, one long), over the twelve global diaries. */
async function twoWorkspaces(engine: Engine, root: string) {
  const registry = new WorkspaceRegistry(engine);
  const alphaDir = folder(root, 'alpha');
  const betaDir = folder(root, 'beta');
  const alpha = (await registry.resolve(alphaDir)).id;
  const beta = (await registry.resolve(betaDir)).id;
  const put = (workspace: string, title: string, summary: string, pinned = false) =>
    engine.write({ title, content: `${summary}\n\n${title}的正文,和别的记忆没有重合的词:${workspace}。`, summary, tags: [title], meta: { workspace, pinned } });
  await put(alpha, '阿尔法置顶的发布规矩', '发布前必须先在预发环境跑一遍冒烟测试', true);
  await put(alpha, '阿尔法的长摘要记忆', LONG_SUMMARY);
  await put(beta, '贝塔独有的备忘', '贝塔的证书每九十天续期一次');
  return { alphaDir, betaDir };
}

const turns = async (session: SimSession, n: number) => {
  for (let i = 0; i < n; i++) await session.userTurn(`第 ${i + 1} 个问题:周报怎么写?`, [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
};

test('hint (default): one static line, byte-identical across turns and sessions, even after writes', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const { alphaDir, betaDir } = await twoWorkspaces(engine, corpus.root);
  const a = host.createSession({ cwd: alphaDir });
  const b = host.createSession({ cwd: betaDir });
  await turns(a, 2);
  await host.tools!.call('engram_write', JSON.stringify({ content: '[12:00] 会话中新写的\n\n> 会话中途写入一条\n\n会话中途写入一条记忆。' }), a);
  await turns(a, 2);
  await turns(b, 2);
  assert.ok(host.requests[0]!.system.includes(WORKSPACE_HINT));
  assert.ok(!host.requests[0]!.system.includes('阿尔法置顶的发布规矩'), 'hint names no memory');
  assert.ok(systemPromptsIdentical(host.requests), 'the system prompt changed');
  assert.equal(prefixStability(a.requests).share, 1);
  await host.settle();
  host.assertClean();
});

test('index: pinned first, then the most recent, at most injectMaxItems, only this workspace + global; frozen for the session', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t, { config: { workspace: { inject: 'index', injectMaxItems: 5 } } });
  const { alphaDir, betaDir } = await twoWorkspaces(engine, corpus.root);
  const a = host.createSession({ cwd: alphaDir });
  await turns(a, 1);
  const system = a.requests[0]!.system;
  const entries = system.split('\n').filter((l) => /^- \d{4}-\d{2}-\d{2} · /.test(l));
  assert.equal(entries.length, 5, system);
  assert.match(entries[0]!, /阿尔法置顶的发布规矩〔置顶〕 \(docId: [0-9a-f]+\):发布前必须/);
  assert.match(entries[1]!, /阿尔法的长摘要记忆 \(docId: [0-9a-f]+\):这一段摘要.*…$/, 'index cuts long summaries');
  assert.ok(!system.includes('青金石'));
  assert.ok(!system.includes('贝塔独有的备忘'), 'another workspace is never listed');
  assert.ok(entries.slice(2).every((l) => l.includes('〔global〕')), 'global memories are marked');
  assert.match(system, /另有 \d+ 条未列出,用 engram_index 翻页查看/);
  assert.ok(!system.includes(WORKSPACE_HINT));

  // A write during the session does not move its system prompt (the index was taken once).
  await host.tools!.call('engram_write', JSON.stringify({ content: '[12:00] 会话中新写的\n\n> 会话中途写入一条\n\n会话中途写入一条记忆。', pinned: true }), a);
  await turns(a, 2);
  assert.ok(systemPromptsIdentical(a.requests));

  // Another session (in beta) gets beta's list, and a new alpha session sees the new memory.
  const b = host.createSession({ cwd: betaDir });
  await turns(b, 1);
  assert.ok(b.requests[0]!.system.includes('贝塔独有的备忘'));
  assert.ok(!b.requests[0]!.system.includes('阿尔法'));
  const a2 = host.createSession({ cwd: alphaDir });
  await turns(a2, 1);
  assert.match(a2.requests[0]!.system, /- \d{4}-\d{2}-\d{2} · 会话中新写的〔置顶〕/);
  await host.settle();
  host.assertClean();
});

test('full: whole summaries; off: nothing at all', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t, { config: { workspace: { inject: 'full', injectMaxItems: 40 } } });
  const { alphaDir } = await twoWorkspaces(engine, corpus.root);
  const a = host.createSession({ cwd: alphaDir });
  await turns(a, 1);
  const full = a.requests[0]!.system;
  assert.ok(full.includes(LONG_SUMMARY), 'the whole summary is there');
  assert.equal(full.split('\n').filter((l) => /^- \d{4}-\d{2}-\d{2} · /.test(l)).length, 14, 'every memory of alpha + global');
  assert.ok(!full.includes('贝塔独有的备忘'));
  assert.doesNotMatch(full, /未列出/);

  await engine.saveSettings({ workspace: { inject: 'off' } });
  const fresh = host.createSession({ cwd: alphaDir });
  await turns(fresh, 1);
  const off = fresh.requests[0]!.system;
  assert.doesNotMatch(off, /### 长期记忆/);
  assert.ok(!off.includes('阿尔法置顶的发布规矩'));
  await host.settle();
  host.assertClean();
});

test('the console\'s level preview (engine previewWorkspaceLevels) shows, for the level in effect, exactly what the plugin injected', async (t) => {
  for (const level of ['hint', 'index', 'full', 'off'] as const) {
    const { host, engine, corpus } = await loadPlugin(t, { config: { workspace: { inject: level, injectMaxItems: 4 } } });
    const { alphaDir } = await twoWorkspaces(engine, corpus.root);
    const a = host.createSession({ cwd: alphaDir });
    await turns(a, 1);
    const section = (await host.systemPrompt.assemble(a)).sections.find((s) => s.name === 'engram:workspace');
    const alpha = (await new WorkspaceRegistry(engine).lookup(alphaDir))!.id;
    const preview = await previewWorkspaceLevels(engine, alpha);
    assert.deepEqual(preview.levels.map((l) => l.level), ['hint', 'index', 'full', 'off']);
    const shown = preview.levels.find((l) => l.current)!;
    assert.equal(shown.level, level);
    assert.equal(shown.text, section?.text ?? '', `${level}: the preview is the injected text`);
    if (level !== 'off') assert.ok(a.requests[0]!.system.includes(shown.text), level);
    assert.equal(shown.tokens > 0, level !== 'off');
    await host.settle();
  }
});
