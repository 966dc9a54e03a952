// The MCP server's session_read on par with the plugin's: a memory's docId opens its source session
// where it came from, q searches inside a session, view thinking / raw; a scoped server does not open
// another workspace's memory; and what its schema costs (the figure docs/mcp.md gives).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { estimateTokens } from '../../src/compaction/tokens.ts';
import { toolInputSchema } from '../../src/mcp/server.ts';
import { mcpTools, type McpToolSpec } from '../../src/mcp/tools.ts';
import { WorkspaceRegistry } from '../../src/workspace/registry.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';
import { IDS, makeHome } from '../sessions/home.ts';

/** An engine over a DSH home with the test sessions (home.ts). */
async function engineWithSessions(t: { after(fn: () => unknown): void }) {
  const home = await makeHome(t);
  const d = tempDirs();
  const engine = await openTestEngine(d, {}, { sessions: { dshHome: home } });
  t.after(() => {
    engine.close();
    rmSync(d.root, { recursive: true, force: true });
  });
  return engine;
}

function sessionRead(engine: Awaited<ReturnType<typeof engineWithSessions>>, workspace: string | null): McpToolSpec {
  const tool = mcpTools({ engine, workspace, env: {} }).find((x) => x.name === 'session_read');
  assert.ok(tool, 'session_read is offered where the DSH home has sessions');
  return tool;
}

async function setup(t: { after(fn: () => unknown): void }, workspace: string | null) {
  const engine = await engineWithSessions(t);
  return { engine, tool: sessionRead(engine, workspace) };
}

const refusal = async (tool: McpToolSpec, args: Record<string, unknown>): Promise<{ code: string; message: string }> => {
  try {
    await tool.run(args);
  } catch (error) {
    return error as { code: string; message: string };
  }
  assert.fail('expected a refusal');
};

test('MCP session_read: a memory’s docId opens its source session at its turn; q inside; thinking and raw views', async (t) => {
  const { engine, tool } = await setup(t, null);
  const memory = await engine.write({ title: '周报写法', content: '周报每周五下午写,列三件事:做了什么、卡在哪里、下周做什么。', meta: { workspace: 'global', sessionId: IDS.rich, origin: 'agent' } });

  const source = await tool.run({ id: memory.docId });
  assert.match(source.text, /记忆「周报写法」\(docId: [0-9a-f]+\)的出处:第 2 轮附近\(按记忆的内容定位\)/);
  assert.deepEqual((source.structured as { source: { turn: number } }).source.turn, 2);

  const found = await tool.run({ id: IDS.rich.slice(0, 8), q: 'sing-box 配置' });
  assert.deepEqual((found.structured as { hits: number[] }).hits, [1]);
  assert.match(found.text, /★ 命中/);

  // The view rides inside q (a parameter of its own would be paid on every request).
  assert.match((await tool.run({ id: IDS.rich, q: 'view:thinking' })).text, /思考:THOUGHT-ONE 先想想/);
  const inRaw = await tool.run({ id: IDS.rich, q: '周报 view:raw' });
  assert.deepEqual((inRaw.structured as { hits: number[]; view: string }).hits, [2]);
  assert.equal((inRaw.structured as { view: string }).view, 'raw');
  const raw = (await tool.run({ id: IDS.rich, q: 'VIEW: raw' })).text;
  assert.match(raw, /\[#\d+ tool\/call · bash\]\n\{"command":"ss -ltnp \| grep 443"\}/);
  assert.match(raw, /INJECTED-RECALL/, 'raw is the message as stored');

  assert.equal((await refusal(tool, { id: IDS.rich, q: 'view:json' })).code, 'invalid-arguments');
  assert.equal((await refusal(tool, { q: '端口' })).code, 'invalid-arguments');
  assert.equal((await refusal(tool, { id: 'zzzz' })).code, 'not-found');
});

test('MCP session_read scoped to a workspace: another workspace’s memory is not opened', async (t) => {
  const { engine, tool } = await setup(t, 'ws-a');
  const other = await engine.write({ title: '别处的记忆', content: '另一个工作区里的周报写法,不该被这个服务器打开。', meta: { workspace: 'ws-b', sessionId: IDS.rich, origin: 'agent' } });
  const own = await engine.write({ title: '这里的记忆', content: '这个工作区里的周报写法:每周五下午写,列三件事。', meta: { workspace: 'ws-a', sessionId: IDS.rich, origin: 'agent' } });
  assert.equal((await refusal(tool, { id: other.docId })).code, 'not-found');
  assert.equal((await tool.run({ id: own.docId })).structured!.id, IDS.rich);
});

test('MCP session_read scoped to a workspace lists and opens only the sessions recorded in its folders', async (t) => {
  const engine = await engineWithSessions(t);
  const alpha = await new WorkspaceRegistry(engine).resolve('/work/alpha', { autoClaim: false });
  const toolOf = (workspace: string | null) => sessionRead(engine, workspace);
  const listed = async (workspace: string | null) => ((await toolOf(workspace).run({})).structured!.sessions as { id: string }[]).map((s) => s.id);

  const scoped = await listed(alpha.id);
  assert.ok(scoped.includes(IDS.rich) && scoped.includes(IDS.sub), `its folder and below: ${scoped.join(', ')}`);
  for (const other of [IDS.beta, IDS.alphabet, IDS.nocwd]) assert.ok(!scoped.includes(other), `${other} is another folder's (or no folder's)`);
  assert.equal((await refusal(toolOf(alpha.id), { id: IDS.beta })).code, 'not-found');
  assert.equal((await refusal(toolOf(alpha.id), { id: IDS.beta.slice(0, 8) })).code, 'not-found');
  assert.equal((await toolOf(alpha.id).run({ id: IDS.rich })).structured!.id, IDS.rich);

  const everyone = await listed(null);
  assert.ok(everyone.includes(IDS.beta), 'an unscoped server lists every session');
  assert.equal((await toolOf(null).run({ id: IDS.beta })).structured!.id, IDS.beta);
});

test('what the session_read schema costs per request (docs/mcp.md)', async (t) => {
  const { tool } = await setup(t, null);
  const cost = estimateTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: toolInputSchema(tool.input) }));
  // The figure in docs/mcp.md's table; the whole-server budget is checked in mcp.test.ts.
  console.log(`session_read schema: ${cost} tokens (estimateTokens)`);
  assert.ok(cost <= 160, `${cost}`);
});
