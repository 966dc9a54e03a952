// Tier 1 and the diary guideline: static text in the system prompt by default, a user-role message
// in message mode; the texts come from config.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_DIARY_GUIDELINE, configSchema } from '@engram/engine';
import { escapePromptVariables, renderResident, TOOL_GUIDANCE } from '../src/host/core/texts.ts';
import { isOwn, loadPlugin } from './helpers.ts';

const MEMORIES = [
  { text: '回答一律用简体中文', critical: true },
  { text: '用户的主力编辑器是 Neovim', critical: false },
];

test('renderResident: critical first, titles from config, tool guidance only with tools', () => {
  const runtime = configSchema.parse({}).runtime;
  const text = renderResident(runtime, MEMORIES, { toolsAvailable: true });
  assert.ok(text.indexOf('### 必须遵守') < text.indexOf('- 回答一律用简体中文'));
  assert.ok(text.indexOf('- 回答一律用简体中文') < text.indexOf('### 一般事实'));
  assert.ok(text.includes(TOOL_GUIDANCE));
  assert.ok(!renderResident(runtime, MEMORIES, { toolsAvailable: false }).includes('engram_search'));
  assert.equal(renderResident({ ...runtime, inject: false }, MEMORIES, { toolsAvailable: true }), '');
  assert.equal(renderResident({ ...runtime, toolGuidance: false }, [], { toolsAvailable: true }), '');
  const custom = renderResident({ ...runtime, title: '## 我的记忆', criticalTitle: '### 红线' }, MEMORIES, { toolsAvailable: false });
  assert.match(custom, /^## 我的记忆/);
  assert.match(custom, /### 红线\n- 回答一律用简体中文/);
  assert.equal(escapePromptVariables('用 {{name}} 占位'), '用 {\u200b{name}} 占位');
});

test('section mode: memories and the guideline are in the system prompt, identical on every request', async (t) => {
  const { host } = await loadPlugin(t, { config: { runtime: { memories: MEMORIES } } });
  const session = host.createSession();
  await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  await session.userTurn('继续', [{ text: 'ok' }]);
  const [first, ...rest] = host.requests;
  assert.match(first!.system, /### 必须遵守\n- 回答一律用简体中文/);
  assert.ok(first!.system.includes(BUILTIN_DIARY_GUIDELINE), 'the built-in guideline is its own section');
  assert.ok(BUILTIN_DIARY_GUIDELINE.length > 2000);
  for (const r of rest) assert.equal(r.system, first!.system);
  assert.equal(first!.messages.filter((m) => isOwn(m, 'instructions')).length, 0);
});

test('escaped memory text holds no "{{" the host would read as a variable, however many braces it has', async () => {
  const { interpolate } = await import('@engram/dsh-sim');
  for (const text of ['{{{x}}}', '{{{{a}}}}', 'a{{{', '{{{x}} 和 }}', '{{user_name}}', '{\u200b{{x}}}', '{'.repeat(7) + 'y' + '}'.repeat(7)]) {
    const escaped = escapePromptVariables(text);
    assert.ok(!escaped.includes('{{'), JSON.stringify(escaped));
    assert.equal(interpolate({ name: 'memory', text: escaped }, {}, 'context'), escaped, `the host's interpolation leaves ${JSON.stringify(text)} as it is`);
    assert.equal(escaped.replace(/\u200b/g, ''), text.replace(/\u200b/g, ''), 'only zero-width spaces are added');
  }
});

test('memory text that looks like a prompt variable does not break assembly', async (t) => {
  const { host } = await loadPlugin(t, { config: { runtime: { memories: [{ text: '模板里写 {{user_name}} 和 {{ broken 和 {{{triple}}}', critical: false }] } } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ text: 'ok' }]);
  assert.equal(turn.status, 'completed');
  assert.match(turn.requests[0]!.system, /user_name/);
  await host.settle();
  host.assertClean();
});

test('guideline: replaceable from settings, can be turned off, takes effect on the next request', async (t) => {
  const { host, engine } = await loadPlugin(t);
  const session = host.createSession();
  await session.userTurn('a', [{ text: 'ok' }]);
  await engine.saveSettings({ diary: { templateText: '## 我的日记规范\n只写结论。' } });
  await session.userTurn('b', [{ text: 'ok' }]);
  await engine.saveSettings({ diary: { templateEnabled: false } });
  await session.userTurn('c', [{ text: 'ok' }]);
  const [a, b, c] = host.requests;
  assert.ok(a!.system.includes(BUILTIN_DIARY_GUIDELINE));
  assert.ok(b!.system.includes('## 我的日记规范\n只写结论。') && !b!.system.includes(BUILTIN_DIARY_GUIDELINE));
  assert.ok(!c!.system.includes('我的日记规范') && !c!.system.includes('日记写作守则'));
});

test('message mode: the resident block is a user-role message, added once and again only when edited', async (t) => {
  const { host, engine } = await loadPlugin(t, { config: { runtime: { mode: 'message', memories: MEMORIES } } });
  const session = host.createSession();
  await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  await session.userTurn('继续', [{ text: 'ok' }]);
  let last = host.requests.at(-1)!;
  const resident = last.messages.filter((m) => isOwn(m, 'instructions'));
  assert.equal(resident.length, 1);
  assert.match(resident[0]!.content, /回答一律用简体中文/);
  assert.doesNotMatch(last.system, /回答一律用简体中文/, 'not in the system prompt as well');
  // The block sits in the first step, before the recall block.
  const first = host.requests[0]!.messages;
  assert.ok(first.findIndex((m) => isOwn(m, 'instructions')) < first.findIndex((m) => isOwn(m, 'recall')));

  await engine.saveSettings({ runtime: { memories: [...MEMORIES, { text: '周五不开会', critical: false }] } });
  await session.userTurn('再继续', [{ text: 'ok' }]);
  last = host.requests.at(-1)!;
  const after = last.messages.filter((m) => isOwn(m, 'instructions'));
  assert.equal(after.length, 2);
  assert.match(after[1]!.content, /周五不开会/);
  await host.settle();
  host.assertClean();
});

test('message mode: runtime.maxMessages caps resident blocks and warns once per block', async (t) => {
  const { host, engine } = await loadPlugin(t, { config: { runtime: { mode: 'message', maxMessages: 1, memories: MEMORIES } } });
  const session = host.createSession();
  await session.userTurn('a', [{ text: 'ok' }]);
  await engine.saveSettings({ runtime: { memories: [{ text: '新的事实', critical: false }] } });
  await session.userTurn('b', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  await session.userTurn('c', [{ text: 'ok' }]);
  assert.equal(host.requests.at(-1)!.messages.filter((m) => isOwn(m, 'instructions')).length, 1);
  assert.equal(host.logs.filter((l) => l.level === 'warn' && /runtime\.maxMessages=1 reached/.test(l.message)).length, 1);
});

test('hot switch of the resident mode: section → message moves the block out of the system prompt', async (t) => {
  const { host, engine } = await loadPlugin(t, { config: { runtime: { memories: MEMORIES } } });
  const session = host.createSession();
  await session.userTurn('a', [{ text: 'ok' }]);
  await engine.saveSettings({ runtime: { mode: 'message' } });
  await session.userTurn('b', [{ text: 'ok' }]);
  const [a, b] = host.requests;
  assert.match(a!.system, /回答一律用简体中文/);
  assert.doesNotMatch(b!.system, /回答一律用简体中文/);
  assert.equal(b!.messages.filter((m) => isOwn(m, 'instructions')).length, 1);
});
