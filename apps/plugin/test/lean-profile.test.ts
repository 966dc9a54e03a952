// The lean profile (the default): which tools and sections it offers, what they cost per request by
// every counter, and that tools.disabled and the full profile keep working.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_DIARY_GUIDELINE } from '@engram/engine';
import { TOOL_NAMES } from '../src/host/tools/memory-tools.ts';
import { CROSS_SESSION_TOOL_NAMES } from '../src/host/crosssession/tools.ts';
import { fullGuideline, guidelineSection, LEAN_GUIDELINE } from '../src/host/resident/guideline.ts';
import { LEAN_TOOL_NAMES, leanNames, sectionsOf } from '../src/host/tools/profiles.ts';
import { TOOL_GUIDANCE, WORKSPACE_HINT } from '../src/host/core/texts.ts';
import { deepseekCounter, estimateTokens, hostTextTokens } from '../scripts/token-counters.ts';
import { loadPlugin, NO_MODEL_INSTALL } from './helpers.ts';

/** The host's own todo tool is not Engram's cost. */
const engramSchemas = (host: Awaited<ReturnType<typeof loadPlugin>>['host']) => host.tools!.schemas().filter((s) => s.name !== 'todo_write');

async function fixedCost(profile: 'lean' | 'full') {
  const real = await deepseekCounter();
  return async (t: { after(fn: () => unknown): void }) => {
    const { host } = await loadPlugin(t, { config: { tools: { profile } } });
    const session = host.createSession({ cwd: '/work/app' });
    await session.userTurn('你好', [{ text: '你好' }]);
    const sections = (await host.systemPrompt.assemble(session)).sections.filter((s) => s.name.startsWith('engram') && s.text !== '');
    const texts = [...engramSchemas(host).map((s) => JSON.stringify({ name: s.name, description: s.description, parameters: s.parameters })), ...sections.map((s) => s.text)];
    const total = (count: (text: string) => number) => texts.reduce((n, text) => n + count(text), 0);
    return { host, sections, estimate: total(estimateTokens), host4: total(hostTextTokens), deepseek: total(real) };
  };
}

test('an install with no profile in its config runs the lean profile', async (t) => {
  const { createHost } = await import('@engram/dsh-sim');
  const { createHostPlugin } = await import('../src/host/apply.ts');
  const { makeCorpus } = await import('./helpers.ts');
  const corpus = makeCorpus();
  const host = createHost({});
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  await host.load(createHostPlugin({ env: {} }), { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, ...NO_MODEL_INSTALL });
  assert.deepEqual(engramSchemas(host).map((s) => s.name).sort(), [...LEAN_TOOL_NAMES].sort());
  const session = host.createSession({ cwd: '/work/app' });
  const turn = await session.userTurn('你好', [{ text: '你好' }]);
  const system = turn.requests[0]!.system;
  assert.ok(system.includes(LEAN_GUIDELINE), 'the one paragraph is resident');
  assert.ok(!system.includes(BUILTIN_DIARY_GUIDELINE.slice(0, 200)), 'the whole guideline is not');
  assert.ok(!system.includes(TOOL_GUIDANCE), 'no tool-guidance block');
  assert.ok(!system.includes(WORKSPACE_HINT), 'no workspace hint');
  // The paragraph names only tools that are offered.
  for (const name of LEAN_GUIDELINE.match(/engram\w*/g) ?? []) assert.ok((LEAN_TOOL_NAMES as readonly string[]).includes(name), name);
  await host.settle();
  host.assertClean();
});

test('lean fixed cost is at most 800 tokens by the estimate, the host meter and DeepSeek V3; the full profile costs several times more', async (t) => {
  const lean = await (await fixedCost('lean'))(t);
  const full = await (await fixedCost('full'))(t);
  assert.deepEqual(
    lean.sections.map((s) => s.name),
    ['engram:diary-guideline'],
    'a fresh session in the lean profile pays for one section',
  );
  for (const [counter, value] of [['estimate', lean.estimate], ['host', lean.host4], ['deepseek', lean.deepseek]] as const) assert.ok(value <= 800, `${counter}: ${value}`);
  assert.ok(full.estimate > 5 * lean.estimate, `full ${full.estimate} vs lean ${lean.estimate}`);
  assert.ok(full.deepseek > 5 * lean.deepseek, `full ${full.deepseek} vs lean ${lean.deepseek}`);
});

test('tools.disabled removes lean tools by name too', async (t) => {
  const { host } = await loadPlugin(t, { config: { tools: { profile: 'lean', disabled: ['engram_history', 'engram_sync'] } } });
  assert.deepEqual(engramSchemas(host).map((s) => s.name).sort(), ['engram', 'engram_save']);
});

test('the full profile keeps today’s fifteen tools, the guidance block, the hint and the whole guideline', async (t) => {
  const { host } = await loadPlugin(t, { config: { tools: { profile: 'full' } } });
  const names = engramSchemas(host).map((s) => s.name).sort();
  assert.deepEqual(names, [...TOOL_NAMES, ...CROSS_SESSION_TOOL_NAMES, 'history_read', 'session_read'].sort());
  const session = host.createSession({ cwd: '/work/app' });
  const turn = await session.userTurn('你好', [{ text: '你好' }]);
  const system = turn.requests[0]!.system;
  assert.ok(system.includes(BUILTIN_DIARY_GUIDELINE.slice(0, 200)));
  assert.ok(system.includes(TOOL_GUIDANCE));
  assert.ok(system.includes(WORKSPACE_HINT));
  assert.ok(!system.includes(LEAN_GUIDELINE));
});

test('leanNames turns every full-profile call in a text into the lean call that does it', () => {
  assert.equal(leanNames('用 engram_locate({ id, query }) 找段,再 engram_detail({ id, segments }) 取;全文 engram_detail({ id })'), '用 engram({ id, q }) 找段,再 engram({ id, seg }) 取;全文 engram({ id })');
  assert.equal(leanNames('session_read({ id: "a1b2c3d4", from: 5 })'), 'engram_history({ id: "a1b2c3d4", from: 5 })');
  assert.equal(leanNames('下一页:engram_index({ page: 3 })'), '下一页:engram({ page: 3 })');
  assert.equal(leanNames('要立规矩请写 which: "rules"'), '要立规矩请写 book: "rules"');
  // engram_status has no lean call (its diagnostics are the console's status page); no text of the engine or the tools names it.
  const full = [...TOOL_NAMES.filter((n) => n !== 'engram_status'), ...CROSS_SESSION_TOOL_NAMES, 'history_read', 'session_read'];
  for (const name of full) assert.doesNotMatch(leanNames(`call ${name} now`), new RegExp(`\\b${name}\\b`), name);
});

test('the guideline section per profile: the paragraph, the user’s own text whole, the whole built-in text without tools, nothing when off', () => {
  const diary = { templateEnabled: true, templateText: '' } as Parameters<typeof guidelineSection>[0];
  assert.equal(guidelineSection(diary, BUILTIN_DIARY_GUIDELINE, sectionsOf('lean'), true), LEAN_GUIDELINE);
  assert.equal(guidelineSection(diary, BUILTIN_DIARY_GUIDELINE, sectionsOf('full'), true), BUILTIN_DIARY_GUIDELINE);
  assert.equal(guidelineSection(diary, BUILTIN_DIARY_GUIDELINE, sectionsOf('lean'), false), BUILTIN_DIARY_GUIDELINE, 'no tools: the semantic-block format must stay');
  const own = { ...diary, templateText: '我的守则:只记结论。' };
  assert.equal(guidelineSection(own, BUILTIN_DIARY_GUIDELINE, sectionsOf('lean'), true), '我的守则:只记结论。');
  assert.equal(fullGuideline(own, BUILTIN_DIARY_GUIDELINE), '我的守则:只记结论。');
  assert.equal(guidelineSection({ ...diary, templateEnabled: false }, BUILTIN_DIARY_GUIDELINE, sectionsOf('lean'), true), '');
  assert.equal(fullGuideline({ ...diary, templateEnabled: false }, BUILTIN_DIARY_GUIDELINE), BUILTIN_DIARY_GUIDELINE, 'on demand even when not resident');
});

test('lean: the workspace index, the notebook section and notices name the lean calls', async (t) => {
  const { host } = await loadPlugin(t, {
    config: { tools: { profile: 'lean' }, workspace: { inject: 'index', injectMaxItems: 3 }, crossSession: { notebookInjectMaxChars: 10 } },
  });
  const session = host.createSession({ cwd: '/work/app' });
  // A semantic block whose title exists: the notice at the next step says how to fix it.
  await session.userTurn('周报怎么写?', [{ text: '好的。\n\n<<<DailyNoteStart>>>\ncommand: create\ntitle: 周报写作流程\n\n[09:00] 周报写作流程\n\n> 又写了一遍\n\n周报每周五下午写。\n\nTag: 周报\n<<<DailyNoteEnd>>>' }]);
  await host.tools!.call('engram_sync', JSON.stringify({ book: 'rules', say: '本会话的回答一律先给结论,再给理由。' }), session);
  const turn = await session.userTurn('继续', [{ text: '好' }]);
  const request = turn.requests[0]!;
  const notice = request.messages.find((m) => (m.source as { form?: string } | undefined)?.form === 'notice');
  assert.ok(notice, 'the failed block is reported');
  assert.match(String(notice!.content), /engram_save/);
  const sections = (await host.systemPrompt.assemble(session)).sections;
  const workspace = sections.find((s) => s.name === 'engram:workspace')!.text;
  assert.match(workspace, /另有 \d+ 条未列出,用 engram\(\{\}\) 翻页查看/);
  const notebook = sections.find((s) => s.name === 'engram:notebook')!.text;
  assert.match(notebook, /已截断.*engram_sync\(\{ book \}\)/, notebook);
  for (const text of [String(notice!.content), workspace, notebook, request.system]) {
    assert.doesNotMatch(text, /engram_(index|search|list|read|locate|detail|write|edit|forget|brief|wall|notebook|status)\b|session_read|history_read/, text.slice(0, 200));
  }
});
