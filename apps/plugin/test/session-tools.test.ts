// session_read against a DSH home of real-shaped logs (multi-frame zstd written here): through the
// simulated host's tool service (schema check, render, the calling session's cwd), and its errors;
// in the whole plugin, a memory's id opening its source session, q inside a session, the views.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compress, init } from '@bokuweb/zstd-wasm';
import { createHost, HOST_VARIANTS } from '@engram/dsh-sim';
import type { ToolExec } from '../src/host/core/host-types.ts';
import { SESSION_READ_TOOL, sessionToolSpecs, type SessionToolConfig, type SessionToolDeps } from '../src/host/sessions/tools.ts';
import { loadPlugin } from './helpers.ts';
import { fallbackTokenizer } from '@engram/engine';

const T0 = new Date(2026, 2, 9, 9, 30).getTime();
const IDS = { alpha1: 'a1a1a1a1-0000-4000-8000-000000000001', alpha2: 'a1a2a2a2-0000-4000-8000-000000000002', beta: 'b2b2b2b2-0000-4000-8000-000000000003' };

// init() again while initialised re-instantiates the module under the running one and the next
// compress returns garbage: initialise once per process.
let ready: Promise<void> | null = null;

function frame(rows: unknown[]): Uint8Array {
  return compress(Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'), 3);
}

function turnRows(start: number, turn: number, user: string, answer: string, seq0: number): unknown[] {
  let seq = seq0;
  let time = start;
  const ev = (type: string, data: unknown) => ({ type, seq: seq++, time: (time += 1000), data });
  return [
    ev('turn/start', { turn }),
    ev('user/message', { id: `u${seq}`, role: 'user', content: [{ type: 'text', text: `${user}<engram-recall>INJECTED</engram-recall>` }], source: { kind: 'user' } }),
    ev('user/message', { id: `p${seq}`, role: 'user', content: [{ type: 'text', text: 'PLUGIN-SNAPSHOT' }], source: { kind: 'plugin', plugin: 'system-prompt', form: 'snapshot' } }),
    ev('assistant/message', { turn, step: 1, message: { content: [{ type: 'reasoning', text: 'THINKING' }, { type: 'text', text: '先看文件。' }] } }),
    ev('tool/call', { turn, step: 1, callId: `c${seq}`, name: 'read_file', arguments: JSON.stringify({ path: `notes/${turn}.md` }) }),
    ev('tool/result', { turn, step: 1, message: { callId: `c${seq - 1}`, content: [{ type: 'text', text: 'file body' }] } }),
    ev('assistant/message', { turn, step: 2, message: { content: [{ type: 'text', text: answer }] } }),
    ev('turn/end', { turn }),
  ];
}

async function makeHome(t: { after(fn: () => unknown): void }): Promise<string> {
  await (ready ??= init());
  const home = mkdtempSync(join(tmpdir(), 'engram-plugin-dsh-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const write = (project: string, id: string, frames: Uint8Array[]) => {
    mkdirSync(join(home, 'sessions', project, id), { recursive: true });
    writeFileSync(join(home, 'sessions', project, id, 'session.v4.jsonl.zstd'), Buffer.concat(frames));
  };
  const alpha1 = [frame([{ type: 'session/header', data: { id: IDS.alpha1, cwd: '/work/alpha', createdAt: T0 } }])];
  for (let i = 1; i <= 12; i++) alpha1.push(frame(turnRows(T0 + i * 60_000, i, `第 ${i} 个问题 ${'背景'.repeat(30)}`, `第 ${i} 个结论 ${'说明'.repeat(60)}`, i * 100)));
  alpha1.push(frame([{ type: 'session/title', seq: 5000, time: T0 + 3_600_000, data: { title: '端口排查' } }]));
  write('alpha', IDS.alpha1, alpha1);
  write('alpha', IDS.alpha2, [frame([{ id: IDS.alpha2, cwd: '/work/alpha', createdAt: T0 + 86_400_000 }, ...turnRows(T0 + 86_400_000, 1, '第二次会话的问题', '第二次会话的结论', 0)])]);
  write('beta', IDS.beta, [frame([{ id: IDS.beta, cwd: '/work/beta' }, ...turnRows(T0, 1, 'beta 的问题', 'beta 的结论', 0)])]);
  return home;
}

const config = (home: string, readMaxChars = 8000): SessionToolConfig => ({ sessions: { dshHome: home, readMaxChars }, inject: { blockName: 'engram-recall' } });

async function loadTools(t: { after(fn: () => unknown): void }, deps: SessionToolDeps) {
  const host = createHost(HOST_VARIANTS.current);
  t.after(() => host.close());
  await host.load({ name: 'session-tools-under-test', inject: ['tools'], apply: (ctx: any) => sessionToolSpecs(deps).forEach((tool) => ctx.tools.register(tool)) });
  return host;
}

test('without an id: this workspace’s sessions, newest first, the caller marked', async (t) => {
  const home = await makeHome(t);
  const host = await loadTools(t, { config: () => config(home) });
  const session = host.createSession({ id: IDS.alpha2, cwd: '/work/alpha' });
  const result = await host.tools!.call(SESSION_READ_TOOL, '{}', session);
  assert.equal(result.error, undefined, result.text);
  const lines = result.text.split('\n');
  assert.match(result.text, /共 2 个/);
  assert.ok(lines.findIndex((l) => l.includes('a1a2a2a2')) < lines.findIndex((l) => l.includes('a1a1a1a1')), 'newest first');
  assert.match(result.text, /a1a1a1a1 · 2026-03-09 09:30 · 端口排查 · 12 轮/);
  assert.match(result.text, /a1a2a2a2 .*\(当前会话\)/);
  assert.doesNotMatch(result.text, /b2b2b2b2/, 'another workspace’s session is not listed');
  assert.deepEqual((result.value as { kind: string }).kind, 'list');
  await host.settle();
  host.assertClean();
});

test('times are shown in the engine’s stored zone, not the process’s: the list and a session’s head', async (t) => {
  const home = await makeHome(t);
  // UTC+14: whatever zone the test runs in, at least one of the two zones differs from it.
  for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
    const engine = { config: config(home), tokenizer: fallbackTokenizer(), timeZone, read: async () => null };
    const [tool] = sessionToolSpecs({ config: () => config(home), engine: () => engine });
    const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(T0);
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    const expected = `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
    const list = (await tool!.execute({}, exec('/work/alpha'))) as { text: string };
    assert.match(list.text, new RegExp(`a1a1a1a1 · ${expected} · 端口排查`), timeZone);
    const read = (await tool!.execute({ id: 'a1a1a1a1', from: 1, to: 1 }, exec('/work/alpha'))) as { text: string };
    assert.ok(read.text.includes(expected), `${timeZone}: the session's head`);
  }
});

test('with an id prefix: the turns without thinking or injected text, paged under readMaxChars', async (t) => {
  const home = await makeHome(t);
  const host = await loadTools(t, { config: () => config(home, 2500) });
  const session = host.createSession({ cwd: '/work/alpha' });
  const first = await host.tools!.call(SESSION_READ_TOOL, JSON.stringify({ id: 'a1a1' }), session);
  assert.equal(first.error, undefined, first.text);
  assert.ok(first.text.length <= 2500, `${first.text.length}`);
  assert.match(first.text, /会话 a1a1a1a1-0000-4000-8000-000000000001 · 端口排查/);
  assert.match(first.text, /用户:第 1 个问题/);
  assert.match(first.text, /助手:第 1 个结论/);
  assert.match(first.text, /工具:read_file\(path=notes\/1\.md\)/);
  for (const leaked of ['INJECTED', 'PLUGIN-SNAPSHOT', 'THINKING', '先看文件']) assert.ok(!first.text.includes(leaked), leaked);
  const value = first.value as { from: number; to: number; total: number; nextFrom: number };
  assert.equal(value.total, 12);
  assert.ok(value.nextFrom > 1 && value.nextFrom <= 12);
  assert.match(first.text, new RegExp(`session_read\\(\\{ id: "a1a1a1a1", from: ${value.nextFrom} \\}\\)`));

  const page = await host.tools!.call(SESSION_READ_TOOL, JSON.stringify({ id: IDS.alpha1, from: 11, to: 12 }), session);
  assert.match(page.text, /第 11 轮/);
  assert.match(page.text, /第 12 轮/);
  assert.doesNotMatch(page.text, /第 10 轮/);

  // Another workspace's session can be read by id (the list is per workspace, the ids are global).
  const beta = await host.tools!.call(SESSION_READ_TOOL, JSON.stringify({ id: 'b2b2' }), session);
  assert.match(beta.text, /beta 的问题/);
  await host.settle();
  host.assertClean();
});

const exec = (cwd: string | undefined, id = 'caller'): ToolExec => ({ callId: 'c', name: SESSION_READ_TOOL, arguments: '{}', agent: { session: { header: { id, ...(cwd ? { cwd } : {}) } } } });

async function rejection(promise: unknown): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('expected a rejection');
}

test('errors say what to do: unknown id, ambiguous prefix, bad page numbers, non-object arguments', async (t) => {
  const home = await makeHome(t);
  const [tool] = sessionToolSpecs({ config: () => config(home) });
  assert.match(await rejection(tool!.execute({ id: 'zzzz' }, exec('/work/alpha'))), /^\[not-found\].*without an id/);
  assert.match(await rejection(tool!.execute({ id: 'a1' }, exec('/work/alpha'))), /^\[ambiguous\] "a1" matches 2 sessions/);
  assert.match(await rejection(tool!.execute({ id: 'a1a1', from: 0 }, exec('/work/alpha'))), /^\[invalid-arguments\]/);
  assert.match(await rejection(tool!.execute({ id: 'a1a1', from: 5, to: 2 }, exec('/work/alpha'))), /^\[invalid-arguments\]/);
  assert.match(await rejection(tool!.execute({ id: 5 }, exec('/work/alpha'))), /^\[invalid-arguments\]/);
  assert.match(await rejection(tool!.execute([1, 2], exec('/work/alpha'))), /^\[invalid-arguments\]/);
  const beyond = (await tool!.execute({ id: 'a1a1', from: 40 }, exec('/work/alpha'))) as { text: string };
  assert.match(beyond.text, /只有 12 轮/);
});

test('DSH home from $DSH_HOME when not configured; no cwd lists every workspace; an empty home lists nothing', async (t) => {
  const home = await makeHome(t);
  const [tool] = sessionToolSpecs({ config: () => null, env: { DSH_HOME: home } });
  const all = (await tool!.execute({}, exec(undefined))) as { kind: string; total: number; text: string };
  assert.equal(all.total, 3);
  assert.match(all.text, /全部工作区/);
  const beta = (await tool!.execute(undefined, exec('/work/beta'))) as { total: number };
  assert.equal(beta.total, 1);

  const [empty] = sessionToolSpecs({ config: () => config(join(home, 'nowhere')) });
  const none = (await empty!.execute({}, exec('/work/alpha'))) as { total: number; text: string };
  assert.equal(none.total, 0);
  assert.match(none.text, /没有找到/);
});

test('workspacePaths widen the listing to the workspace’s other folders', async (t) => {
  const home = await makeHome(t);
  const [tool] = sessionToolSpecs({ config: () => config(home), workspacePaths: (cwd) => (cwd === '/work/alpha' ? ['/work/beta'] : []) });
  const value = (await tool!.execute({}, exec('/work/alpha'))) as { total: number };
  assert.equal(value.total, 3);
});

test('in the plugin: a memory’s docId opens its source session where it came from; q finds turns inside; thinking and raw views', async (t) => {
  const home = await makeHome(t);
  const { host, engine } = await loadPlugin(t, { config: { sessions: { dshHome: home } } });
  const written = await engine.write({ title: '端口排查第 7 个结论', content: '端口排查的第 7 个结论,记下来以后用。', meta: { workspace: 'global', sessionId: IDS.alpha1, origin: 'agent' } });
  const hidden = await engine.write({ title: '别的工作区', content: '另一个工作区里记下的第 7 个结论,不该被看到。', meta: { workspace: 'ws-elsewhere', sessionId: IDS.alpha1, origin: 'agent' } });
  const noSource = await engine.write({ title: '控制台写的', content: '控制台里手写的一条,没有出处会话,只为检查提示。', meta: { workspace: 'global' } });
  const session = host.createSession({ cwd: '/work/alpha' });
  const call = (args: Record<string, unknown>) => host.tools!.call(SESSION_READ_TOOL, JSON.stringify(args), session);

  const source = await call({ id: written.docId });
  assert.equal(source.error, undefined, source.text);
  assert.match(source.text, new RegExp(`记忆「端口排查第 7 个结论」\\(docId: ${written.docId}\\)的出处:第 7 轮附近`));
  assert.deepEqual((source.value as { id: string; from: number; to: number; source: { turn: number } }).source.turn, 7);
  assert.deepEqual([(source.value as { from: number }).from, (source.value as { to: number }).to], [6, 8]);
  assert.match(source.text, /—— 第 6 轮[\s\S]*—— 第 7 轮[\s\S]*—— 第 8 轮/);

  const found = await call({ id: IDS.alpha1.slice(0, 8), q: 'notes/11.md' });
  assert.equal(found.error, undefined, found.text);
  assert.deepEqual((found.value as { hits: number[] }).hits[0], 11);
  assert.match(found.text, /★ 命中[\s\S]*第 11 轮/);

  const thinking = await call({ id: IDS.alpha2, view: 'thinking' });
  assert.match(thinking.text, /思考:THINKING\n\n?/);
  const raw = await call({ id: IDS.alpha2, view: 'raw' });
  assert.match(raw.text, /\[#\d+ user\/message · 插件 system-prompt\/snapshot\]\nPLUGIN-SNAPSHOT/);
  assert.match(raw.text, /\[#\d+ tool\/call · read_file\]\n\{"path":"notes\/1\.md"\}/);
  assert.match(raw.text, /〔思考〕THINKING/);

  // Another workspace's memory is no memory to this session; a memory without a source says so.
  assert.match((await call({ id: hidden.docId })).text, /not-found|no session or memory/);
  assert.match((await call({ id: noSource.docId })).text, /no-source|records no source session/);
  assert.match((await call({ q: '端口' })).text, /q.*searches inside one session/);
  await host.settle();
});
