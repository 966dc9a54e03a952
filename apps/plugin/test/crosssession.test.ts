// engram_brief / engram_wall / engram_notebook and the notebook prompt section, through the host
// simulator against the real engine. The registration functions are loaded by a tiny test-only
// plugin (the real plugin wires them in apply.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createHost, HOST_VARIANTS, systemPromptsIdentical } from '@engram/dsh-sim';
import { CompactionMemory, openEngine, PRECEDENCE_TEXT, MINOR_ELSEWHERE_TEXT, type Engine } from '@engram/engine';
import { NOTEBOOK_SECTION_NAME, registerNotebookSection } from '../src/host/crosssession/prompt.ts';
import { BRIEF_TOOL, CROSS_SESSION_TOOL_NAMES, NOTEBOOK_TOOL, registerCrossSessionTools, WALL_TOOL, type WorkspaceOf } from '../src/host/crosssession/tools.ts';
import type { HostContext } from '../src/host/core/host-types.ts';

const WORKSPACES: Record<string, string> = { '/work/a': 'ws-a', '/work/c': 'ws-c' };
const workspaceOf: WorkspaceOf = (session) => WORKSPACES[session.header.cwd ?? ''] ?? null;

async function loadCrossSession(t: { after(fn: () => unknown): void }, options: Parameters<typeof createHost>[0] = {}) {
  const root = mkdtempSync(join(tmpdir(), 'engram-xs-'));
  const diaryDir = join(root, 'diaries');
  mkdirSync(diaryDir);
  let engine: Engine | null = null;
  const plugin = {
    name: 'engram-crosssession-test',
    inject: ['systemPrompt'],
    async apply(ctx: HostContext) {
      const open = await openEngine({ options: { diaryDir, dataDir: join(root, 'data') }, env: { HOME: root } });
      engine = open;
      ctx.effect!(() => () => open.close());
      registerNotebookSection(ctx, { engine: () => engine });
      ctx.inject!(['tools'], (scoped) => registerCrossSessionTools(scoped, { engine: () => engine, workspaceOf }));
    },
  };
  const host = createHost(options);
  t.after(async () => {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  });
  await host.load(plugin, {});
  assert.ok(engine);
  return { host, engine: engine as Engine };
}

const sectionText = async (host: Awaited<ReturnType<typeof loadCrossSession>>['host'], session: unknown) =>
  (await host.systemPrompt.assemble(session)).sections.find((s) => s.name === NOTEBOOK_SECTION_NAME)?.text ?? '';

for (const [variant, options] of Object.entries(HOST_VARIANTS)) {
  test(`brief through the host: other sessions’ memories once, scoped by workspace (${variant})`, async (t) => {
    const { host, engine } = await loadCrossSession(t, options);
    const A = host.createSession({ id: randomUUID(), cwd: '/work/a' });
    const B = host.createSession({ id: randomUUID(), cwd: '/work/a' });
    const C = host.createSession({ id: randomUUID(), cwd: '/work/c' });
    const schemas = host.tools!.schemas().filter((s) => (CROSS_SESSION_TOOL_NAMES as readonly string[]).includes(s.name));
    assert.equal(schemas.length, 3);
    for (const s of schemas) assert.equal((s.parameters as { type?: string }).type, 'object');

    await engine.write({ title: '东京节点端口', content: '东京节点的 443 端口被占用,改用 8443 端口。', meta: { workspace: 'ws-a', sessionId: A.id, origin: 'agent' } });
    await engine.write({ title: '提交信息约定', content: '所有项目的提交信息都用中文写清楚动机。', meta: { workspace: 'global', sessionId: A.id, origin: 'agent' } });

    // The model calls engram_brief at the first turn of B.
    const turn = await B.userTurn('开始工作', [{ toolCalls: [{ name: BRIEF_TOOL, arguments: {} }] }, { text: '好的' }]);
    const result = turn.requests.at(-1)!.messages.find((m) => m.role === 'tool');
    assert.ok(result, 'the brief came back as a tool result');
    assert.match(result.content, /东京节点端口/);
    assert.match(result.content, /提交信息约定/);
    assert.ok(result.content.includes(`s:${A.id.slice(0, 8)}`), 'provenance: the writing session’s short id');

    const again = await host.tools!.call(BRIEF_TOOL, '{}', B);
    assert.equal(again.error, undefined, again.text);
    assert.match(again.text, /没有写下或改动记忆/, 'cursor advanced: nothing twice');

    const other = await host.tools!.call(BRIEF_TOOL, '{}', C);
    assert.doesNotMatch(other.text, /东京节点端口/, 'another workspace never sees ws-a’s memories');
    assert.match(other.text, /提交信息约定/, 'global ones it does');

    const own = await host.tools!.call(BRIEF_TOOL, '{}', A);
    assert.doesNotMatch(own.text, /东京节点端口/, 'a session’s own memories are not news to it');
    await host.settle();
    host.assertClean();
  });
}

test('wall through the host: public, addressed by prefix, addressed by workspace', async (t) => {
  const { host } = await loadCrossSession(t);
  const A = host.createSession({ id: randomUUID(), cwd: '/work/a' });
  const B = host.createSession({ id: randomUUID(), cwd: '/work/a' });
  const C = host.createSession({ id: randomUUID(), cwd: '/work/c' });
  const call = (session: unknown, args: unknown) => host.tools!.call(WALL_TOOL, JSON.stringify(args), session);

  assert.match((await call(A, { say: '大家注意:周五停机维护。' })).text, /已留言给所有人/);
  assert.match((await call(A, { say: '你那个脚本建议加个超时。', to: B.id.slice(0, 6) })).text, new RegExp(`已留言给会话 ${B.id.slice(0, 6)}`));
  assert.match((await call(A, { say: 'ws-c 的接口改名了。', to: 'ws:ws-c' })).text, /已留言给工作区 ws-c/);
  const short = await call(A, { say: '前缀太短', to: 'abc' });
  assert.match(short.text, /\[bad-input\]/);
  const empty = await call(A, { say: '   ' });
  assert.match(empty.text, /\[bad-input\]/);

  const forB = await call(B, {});
  assert.match(forB.text, /\[给你\] s:[0-9a-f]{8} → 会话 [0-9a-f]{6} · .*建议加个超时/);
  assert.match(forB.text, /周五停机维护/);
  assert.doesNotMatch(forB.text, /接口改名/);
  const forC = await call(C, {});
  assert.match(forC.text, /\[给你\].*接口改名/);
  assert.doesNotMatch(forC.text, /建议加个超时/);

  const brief = await host.tools!.call(BRIEF_TOOL, '{}', B);
  assert.match(brief.text, /墙上最新留言:\n.*\[给你\]/);
  await host.settle();
  host.assertClean();
});

test('notebook: no section while empty; rules injected with precedence, stable across turns, private to the session', async (t) => {
  const { host, engine } = await loadCrossSession(t);
  const A = host.createSession({ id: randomUUID(), cwd: '/work/a' });
  const B = host.createSession({ id: randomUUID(), cwd: '/work/a' });
  const call = (session: unknown, args: unknown) => host.tools!.call(NOTEBOOK_TOOL, JSON.stringify(args), session);

  const first = await A.userTurn('你好', [{ text: '你好' }]);
  assert.equal(await sectionText(host, A), '');
  assert.doesNotMatch(first.requests[0]!.system, /engram-notebook/, 'empty books: no section text at all');

  assert.match((await call(A, { which: 'notes', say: '私下的计划:周五前悄悄把重构做完。' })).text, /已写入「私密笔记」/);
  assert.equal(await sectionText(host, A), '', 'notes are never injected');
  assert.match((await call(A, { which: 'notes' })).text, /悄悄把重构/);

  const wrote = await call(A, { which: 'rules', say: '回答一律先给结论,再给理由。{{not_a_variable}}' });
  assert.ok(wrote.text.startsWith('已写入「本会话规则」(追加)'), wrote.text);
  const t2 = await A.userTurn('东京节点怎么了?', [{ text: '端口被占用' }]);
  const t3 = await A.userTurn('还有呢?', [{ text: '没有了' }]);
  const system = t2.requests[0]!.system;
  assert.ok(system.includes(PRECEDENCE_TEXT.split('\n3. ')[0]!) && system.includes(MINOR_ELSEWHERE_TEXT), 'the precedence is stated');
  assert.ok(system.includes('回答一律先给结论,再给理由。'));
  assert.ok(systemPromptsIdentical([...t2.requests, ...t3.requests]), 'byte-identical while the books do not change');
  assert.equal(await sectionText(host, B), '', 'another session does not get A’s rules');
  assert.match((await call(B, { which: 'rules' })).text, /本会话规则是空的/);

  // The minor-rules book of the compaction channel joins, below the session's rules.
  const compaction = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
  await compaction.files.writeRules({ workspace: '/work/a', sessionId: A.id }, [
    { text: '以后都用 pnpm 装依赖。', hits: 2, firstSeen: '2026-11-01', lastSeen: '2026-11-01', lastCompaction: 'c1' },
  ]);
  assert.doesNotMatch(await sectionText(host, A), /pnpm/, 'by default the compaction channel shows minor rules, not this section');
  await engine.saveSettings({ compaction: { rules: { inject: false } } });
  const withMinor = await sectionText(host, A);
  assert.ok(withMinor.indexOf('回答一律先给结论') < withMinor.indexOf('以后都用 pnpm 装依赖。(×2)'), withMinor);
  assert.match((await call(A, { which: 'minor' })).text, /以后都用 pnpm/);
  assert.match((await call(A, { which: 'minor', say: '手写一条' })).text, /\[read-only-book\]/);

  const replaced = await call(A, { which: 'rules', say: '新的规矩:只用中文回答。', mode: 'replace' });
  assert.match(replaced.text, /整本替换.*旧版本已备份到 compaction\/.*notebook-bak\/session-rules-/);
  assert.doesNotMatch(await sectionText(host, A), /先给结论/);
  await host.settle();
  host.assertClean();
});

test('notebook: a session id that could name another folder is refused, and the prompt goes on without the section', async (t) => {
  const { host } = await loadCrossSession(t);
  const evil = host.createSession({ id: '../../escape', cwd: '/work/a' });
  const write = await host.tools!.call(NOTEBOOK_TOOL, JSON.stringify({ which: 'rules', say: '越界写入' }), evil);
  assert.match(write.text, /\[path-escape\]/);
  const turn = await evil.userTurn('你好', [{ text: '你好' }]);
  assert.equal(turn.status, 'completed');
  assert.equal(await sectionText(host, evil), '');
  const sub = host.createSession({ id: randomUUID(), cwd: '/work/a', origin: 'subagent' });
  assert.equal(await sectionText(host, sub), '', 'subagents get no notebook section');
  await host.settle();
  host.assertClean();
});

test('notebook section fallback: a host whose text() gets no session still gets the text, through the assemble waterfall', async (t) => {
  const { host, engine } = await loadCrossSession(t);
  const A = host.createSession({ id: randomUUID(), cwd: '/work/a' });
  await host.tools!.call(NOTEBOOK_TOOL, JSON.stringify({ which: 'rules', say: '只用中文回答。' }), A);
  // A stand-in host context: records the section and the waterfall listener.
  let section: { name: string; text: (ctx: unknown) => string } | undefined;
  let listener: ((assembly: unknown, context: unknown, next: () => Promise<unknown>) => Promise<unknown>) | undefined;
  const fake = {
    systemPrompt: { section: (input: typeof section) => ((section = input), () => {}) },
    on: (name: string, fn: typeof listener) => {
      if (name === 'system-prompt/assemble') listener = fn;
      return () => {};
    },
  } as unknown as HostContext;
  registerNotebookSection(fake, { engine: () => engine });
  assert.equal(section!.text({}), '', 'no session in text(): nothing');
  const assembly = { sections: [{ name: NOTEBOOK_SECTION_NAME, text: section!.text({}) }], contexts: [], tools: [], variables: {} };
  const filled = (await listener!(assembly, { agent: { session: A.agent.session } }, async () => assembly)) as typeof assembly;
  assert.match(filled.sections[0]!.text, /只用中文回答。/);
  const again = (await listener!(assembly, { agent: { session: A.agent.session } }, async () => assembly)) as typeof assembly;
  assert.equal(again.sections[0]!.text, filled.sections[0]!.text, 'the same bytes each time');
  // Where text() did see the session, the waterfall leaves the section alone.
  const context = { agent: { session: A.agent.session } };
  const direct = section!.text(context);
  const untouched = { sections: [{ name: NOTEBOOK_SECTION_NAME, text: direct }], contexts: [], tools: [], variables: {} };
  assert.equal(await listener!(untouched, context, async () => untouched), untouched);
});
