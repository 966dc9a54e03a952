// What the model is told about Engram's tools: nothing asks it for a routine call ("call this at the
// start of every session", "once per turn"). Recall is automatic; every such call is one more round
// trip per session for nothing. Checked on everything each profile puts in a request: the tool
// schemas (descriptions and parameter descriptions) and Engram's system-prompt sections.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPlugin } from './helpers.ts';

/** A request for a call at a moment that comes around by itself: a session's start, every turn. */
const ROUTINE_CALL = [
  /(新会话|每个会话|会话开始|会话开头|开始时|一开始|首轮|第一轮|每轮|每一轮|每次对话|每次会话|每次回答|每次提问|开场)[^。;;]{0,16}(调用|调一次|先调|用一次|先用)/u,
  /(先|总是|务必|始终|必须)(调用|调)\s*engram/u,
  /\b(at the (start|beginning) of (each|every|a new) (session|conversation|turn)|every (session|turn)|always call|call (it|this) first)\b/i,
];

function describedTexts(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) describedTexts(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k === 'description' || typeof v === 'object') describedTexts(v, out);
  return out;
}

for (const profile of ['lean', 'full'] as const) {
  test(`no tool description or section asks the model for a routine call (${profile} profile)`, async (t) => {
    const { host } = await loadPlugin(t, { config: { tools: { profile } } });
    const session = host.createSession({ cwd: '/work/app' });
    await session.userTurn('你好', [{ text: '你好' }]);
    const schemas = host.tools!.schemas().filter((s) => s.name !== 'todo_write');
    assert.ok(schemas.length > 0);
    const sections = (await host.systemPrompt.assemble(session)).sections.filter((s) => s.name.startsWith('engram'));
    const texts = [...schemas.flatMap((s) => describedTexts({ description: s.description, parameters: s.parameters }).map((text) => ({ where: s.name, text }))), ...sections.map((s) => ({ where: s.name, text: s.text }))];
    for (const { where, text } of texts) {
      for (const pattern of ROUTINE_CALL) assert.doesNotMatch(text, pattern, `${where} asks for a routine call: ${text}`);
    }
  });
}
