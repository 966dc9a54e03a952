// Every capability of the full tool set, driven through the lean profile's four tools in the
// simulated host against the real engine: write, search → locate → detail, edit, forget, the whole
// guideline on demand, brief, wall, notebook, past sessions (session_read) and compacted turns
// (history_read). Each call goes through the host's tool service (argument schema, value against
// output.schema, render), the way the model's calls do.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compress, init } from '@bokuweb/zstd-wasm';
import { BUILTIN_DIARY_GUIDELINE } from '@engram/engine';
import { NOTEBOOK_SECTION_NAME } from '../src/host/crosssession/prompt.ts';
import { createLeanTools } from '../src/host/tools/lean-tools.ts';
import { CORPUS, loadPlugin, makeCorpus } from './helpers.ts';

type Host = Awaited<ReturnType<typeof loadPlugin>>['host'];
type Session = ReturnType<Host['createSession']>;

const LEAN = { profile: 'lean' };

const section = (name: string, topic: string, n: number, extra = '') =>
  `## ${name}\n${Array.from({ length: n }, (_, i) => `关于${topic}的第${i + 1}条记录,当时讨论了很多细节。`).join('')}${extra}\n`;
const LONG_BODY = [
  section('背景', '背景', 30),
  section('安装步骤', '安装', 40),
  section('故障排查', '排查', 18, '最后发现会话日志是多帧的 zstd 文件,解压器只吃单帧,所以按 magic 切帧再逐帧解压。'),
  section('复盘', '复盘', 30),
].join('\n');

/** One call as the model makes it; fails the test on a tool error unless `expectError`. */
async function call(host: Host, name: string, args: unknown, session?: Session, expectError = false) {
  const result = await host.tools!.call(name, JSON.stringify(args), session);
  if (!expectError) assert.equal(result.error, undefined, `${name} ${JSON.stringify(args)}: ${result.text}`);
  return result as typeof result & { value: { layer: string; result: Record<string, any> } };
}

test('lean read layers: q searches, id+q locates, id+seg takes the segment, id alone the whole text, no arguments the index', async (t) => {
  // More memories than one index page (20) holds.
  const extra = Array.from({ length: 10 }, (_, i): [string, string, string] => [`2026-04-${String(i + 1).padStart(2, '0')}`, `第${i + 1}次站会记录`, `第${i + 1}次站会讨论了迭代${i + 1}的排期和阻塞项。`]);
  const corpus = makeCorpus([...CORPUS, ...extra, ['2026-03-20', '部署事故全过程', LONG_BODY]]);
  t.after(() => corpus.cleanup());
  const { host } = await loadPlugin(t, { corpus, config: { tools: LEAN } });

  const search = await call(host, 'engram', { q: 'zstd 多帧解压' });
  assert.equal(search.value.layer, 'search');
  const hit = search.value.result.hits[0];
  assert.equal(hit.title, '部署事故全过程');
  assert.match(search.text, /engram\(\{ id, q \}\)/, 'the result names the next lean call');
  assert.doesNotMatch(search.text, /engram_locate|engram_detail/, 'and no full-profile tool');

  const located = await call(host, 'engram', { id: hit.docId, q: 'zstd' });
  assert.equal(located.value.layer, 'locate');
  const best = located.value.result.hits[0];
  assert.match(best.heading, /^故障排查/);
  assert.ok(located.value.result.segmentCount >= 4);
  assert.doesNotMatch(located.text, /关于复盘的第1条/, 'previews, not the text');
  assert.match(located.text, new RegExp(`engram\\(\\{ id: "${hit.docId}", seg: \\[${best.index}`));

  const part = await call(host, 'engram', { id: hit.docId, seg: [best.index] });
  assert.equal(part.value.layer, 'detail');
  assert.match(part.text, /zstd/);
  assert.doesNotMatch(part.text, /关于复盘的第1条/);
  assert.ok(part.text.length < located.value.result.chars / 2, `${part.text.length} of ${located.value.result.chars}`);

  const whole = await call(host, 'engram', { id: hit.docId });
  assert.equal(whole.value.layer, 'detail');
  assert.match(whole.text, /全文/);
  assert.match(whole.text, /关于复盘的第1条/);

  const index = await call(host, 'engram', {});
  assert.equal(index.value.layer, 'index');
  assert.equal(index.value.result.total, CORPUS.length + 11);
  assert.equal(index.value.result.pages, 2);
  assert.match(index.text, /下一页:engram\(\{ page: 2 \}\)/);
  const second = await call(host, 'engram', { page: 2 });
  assert.equal(second.value.result.page, 2);
  assert.equal(second.value.result.items.length, 3);

  const missing = await call(host, 'engram', { id: 'no-such-doc' }, undefined, true);
  assert.ok(missing.error, 'an unknown id is an error');
  assert.doesNotMatch(missing.text, /engram_index|engram_search/, 'the error names the lean calls');
  // The host refuses non-object arguments itself; a host that passes them on gets the tool's own code.
  const bad = await host.tools!.call('engram', JSON.stringify([1, 2]));
  assert.ok(bad.error);
  const direct = createLeanTools({ engine: () => null, workspaceOf: () => null, compaction: () => null });
  for (const tool of direct) await assert.rejects(Promise.resolve(tool.execute([1, 2], { callId: 'c', name: tool.name, arguments: '[1,2]' })), /\[invalid-arguments\]/, tool.name);
  await assert.rejects(Promise.resolve(direct[0]!.execute({ q: '周报' }, { callId: 'c', name: 'engram', arguments: '{}' })), /\[not-ready\]/, 'no engine: not-ready, not a crash');
  await host.settle();
  host.assertClean();
});

test('lean write layers: write, edit, supersede, forget, global; no arguments returns the whole guideline', async (t) => {
  const { host, corpus } = await loadPlugin(t, { config: { tools: LEAN } });
  const session = host.createSession({ cwd: '/work/app' });

  const written = await call(host, 'engram_save', { content: '[11:00] 新的发布规范\n\n> 发布前先写回滚脚本\n\n发布前先写回滚脚本,再通知值班同事。\n\nTag: 发布, 回滚' }, session);
  assert.equal(written.value.layer, 'write');
  const { docId, path } = written.value.result;
  assert.ok(existsSync(join(corpus.diaryDir, path)));
  assert.match(written.text, /已保存/);
  assert.match(readFileSync(join(corpus.diaryDir, path), 'utf8'), new RegExp(`session=${session.id}`), 'provenance: the writing session');

  const found = await call(host, 'engram', { q: '发布 回滚脚本' }, session);
  assert.ok(found.value.result.hits.some((h: { docId: string }) => h.docId === docId), 'the new memory is searchable at once');

  const edited = await call(host, 'engram_save', { id: docId, target: '发布前先写回滚脚本,再通知值班同事。', content: '发布前先写回滚脚本,再通知值班同事和产品经理。' }, session);
  assert.equal(edited.value.layer, 'edit');
  assert.match(readFileSync(join(corpus.diaryDir, path), 'utf8'), /再通知值班同事和产品经理。/);
  const tooShort = await call(host, 'engram_save', { id: docId, target: '回滚', content: 'x' }, session, true);
  assert.match(tooShort.text, /\[target-too-short\]/);

  const newer = await call(host, 'engram_save', { id: docId, content: '[12:00] 发布规范第二版\n\n> 发布前写回滚脚本并演练一次\n\n发布前写回滚脚本,并在预发环境演练一次回滚。\n\nTag: 发布, 回滚, 演练' }, session);
  assert.equal(newer.value.layer, 'write');
  assert.equal(newer.value.result.supersedes, docId, 'id + content writes a memory that replaces the old one');

  const everywhere = await call(host, 'engram_save', { content: '[13:00] 用户偏好深色主题\n\n> 所有项目的界面都用深色主题\n\n用户说过所有项目都用深色主题。\n\nTag: 深色主题, 偏好', global: true }, session);
  assert.equal(everywhere.value.result.workspace, 'global');

  const forgotten = await call(host, 'engram_save', { id: docId, forget: true }, session);
  assert.equal(forgotten.value.layer, 'forget');
  assert.match(forgotten.value.result.to, /^已整理\//);
  assert.ok(!existsSync(join(corpus.diaryDir, path)), 'moved to the archive, not deleted');
  assert.ok(existsSync(join(corpus.diaryDir, forgotten.value.result.to)));

  const lonelyId = await call(host, 'engram_save', { id: newer.value.result.docId }, session, true);
  assert.match(lonelyId.text, /\[invalid-arguments\]/);

  const guide = await call(host, 'engram_save', {}, session);
  assert.equal(guide.value.layer, 'guide');
  assert.equal(guide.text, BUILTIN_DIARY_GUIDELINE, 'the whole guideline, on demand');
  await host.settle();
  host.assertClean();
});

test('lean sync layers: brief sees the other session’s memory, the wall carries a message, the rules book reaches the prompt', async (t) => {
  const { host } = await loadPlugin(t, { corpus: makeCorpus([]), config: { tools: LEAN } });
  const a = host.createSession({ cwd: '/work/app' });
  const b = host.createSession({ cwd: '/work/app' });
  await call(host, 'engram_sync', {}, b); // b's first sync: nothing yet
  await call(host, 'engram_save', { content: '[10:00] 东京节点改用 8443\n\n> 443 被占用,改用 8443\n\n东京节点的 443 被 nginx 占用,改用 8443。\n\nTag: 东京节点, 8443' }, a);

  const brief = await call(host, 'engram_sync', {}, b);
  assert.equal(brief.value.layer, 'brief');
  assert.match(brief.text, /东京节点改用 8443/);
  assert.ok(brief.text.includes(`s:${a.id.replace(/^session-/, '').slice(0, 8)}`), 'the writing session is named (by the part after the host’s session- prefix)');
  const again = await call(host, 'engram_sync', {}, b);
  assert.doesNotMatch(again.text, /东京节点改用 8443/, 'the sync point moved on');

  const posted = await call(host, 'engram_sync', { say: '8443 的防火墙规则记得一起改。', to: b.id.slice(0, 8) }, a);
  assert.equal(posted.value.layer, 'wall');
  assert.doesNotMatch(posted.text, /engram_brief|engram_wall/);
  const wall = await call(host, 'engram_sync', { wall: true }, b);
  assert.match(wall.text, /8443 的防火墙规则记得一起改/);
  assert.match(wall.text, /给你/);

  const rule = await call(host, 'engram_sync', { book: 'rules', say: '本会话的回答一律先给结论。' }, b);
  assert.equal(rule.value.layer, 'notebook');
  const notebook = (await host.systemPrompt.assemble(b)).sections.find((s) => s.name === NOTEBOOK_SECTION_NAME)?.text ?? '';
  assert.match(notebook, /本会话的回答一律先给结论/, 'the rules book is injected for b');
  const otherNotebook = (await host.systemPrompt.assemble(a)).sections.find((s) => s.name === NOTEBOOK_SECTION_NAME)?.text ?? '';
  assert.doesNotMatch(otherNotebook, /一律先给结论/, 'and only for b');
  const read = await call(host, 'engram_sync', { book: 'rules' }, b);
  assert.match(read.text, /一律先给结论/);
  const replaced = await call(host, 'engram_sync', { book: 'rules', say: '回答用中文。', replace: true }, b);
  assert.equal(replaced.value.result.mode, 'replace');
  assert.doesNotMatch((await call(host, 'engram_sync', { book: 'rules' }, b)).text, /一律先给结论/);
  const minor = await call(host, 'engram_sync', { book: 'minor', say: 'x' }, b, true);
  assert.match(minor.text, /\[read-only-book\].*book: "rules"/, 'the error names the lean argument');
  await host.settle();
  host.assertClean();
});

// The host's session logs are multi-frame zstd; written here in that shape.
let zstdReady: Promise<void> | null = null;
const frame = (rows: unknown[]) => compress(Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n'), 3);

test('lean history layers: past sessions listed and read, this session’s compacted turns verbatim', async (t) => {
  await (zstdReady ??= init());
  const home = mkdtempSync(join(tmpdir(), 'engram-lean-dsh-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const id = 'a1a1a1a1-0000-4000-8000-000000000001';
  const t0 = Date.UTC(2026, 2, 9, 1, 30);
  let seq = 0;
  const ev = (type: string, data: unknown) => ({ type, seq: seq++, time: t0 + seq * 1000, data });
  mkdirSync(join(home, 'sessions', 'app', id), { recursive: true });
  writeFileSync(
    join(home, 'sessions', 'app', id, 'session.v4.jsonl.zstd'),
    Buffer.concat([
      frame([{ type: 'session/header', data: { id, cwd: '/work/app', createdAt: t0 } }]),
      frame([
        ev('turn/start', { turn: 1 }),
        ev('user/message', { id: 'u1', role: 'user', content: [{ type: 'text', text: '上次那个端口最后定的是多少?' }], source: { kind: 'user' } }),
        ev('assistant/message', { turn: 1, step: 1, message: { content: [{ type: 'reasoning', text: 'THINKING' }, { type: 'text', text: '最后定的是 8443。' }] } }),
        ev('turn/end', { turn: 1 }),
      ]),
    ]),
  );
  const { host } = await loadPlugin(t, { corpus: makeCorpus([]), config: { tools: LEAN, sessions: { dshHome: home } } });
  const session = host.createSession({ cwd: '/work/app' });

  const list = await call(host, 'engram_history', {}, session);
  assert.equal(list.value.layer, 'sessions');
  assert.ok(list.text.includes(id.slice(0, 8)));
  assert.doesNotMatch(list.text, /session_read/, 'the listing names the lean call');
  const past = await call(host, 'engram_history', { id: id.slice(0, 8) }, session);
  assert.equal(past.value.layer, 'session');
  assert.match(past.text, /最后定的是 8443/);
  assert.doesNotMatch(past.text, /THINKING/, 'no thinking text');

  await session.userTurn('东京节点 443 端口被占用了怎么办?', [{ text: '443 被 nginx 占用。建议改用 8443 端口。' }]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  session.compact({ summary: '## 端口\n东京节点改用 8443。' });
  const folded = await call(host, 'engram_history', { q: '东京节点端口' }, session);
  assert.equal(folded.value.layer, 'compacted');
  assert.ok(folded.text.includes('443 被 nginx 占用。建议改用 8443 端口。'), folded.text);
  const other = host.createSession({ cwd: '/work/app' });
  assert.doesNotMatch((await call(host, 'engram_history', { q: '东京节点端口' }, other)).text, /nginx/, 'another session sees none of it');
  await host.settle();
  host.assertClean();
});

test('lean history: a memory’s docId opens the session it came from; view shows the thinking or the raw messages', async (t) => {
  await (zstdReady ??= init());
  const home = mkdtempSync(join(tmpdir(), 'engram-lean-dsh-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const id = 'c3c3c3c3-0000-4000-8000-000000000003';
  const t0 = Date.UTC(2026, 2, 9, 1, 30);
  let seq = 0;
  const ev = (type: string, data: unknown) => ({ type, seq: seq++, time: t0 + seq * 1000, data });
  const turn = (n: number) => [
    ev('turn/start', { turn: n }),
    ev('user/message', { id: `u${n}`, role: 'user', content: [{ type: 'text', text: `第 ${n} 个问题` }], source: { kind: 'user' } }),
    ev('assistant/message', { turn: n, step: 1, message: { content: [{ type: 'reasoning', text: `THINKING-${n}` }, { type: 'text', text: `第 ${n} 个结论` }] } }),
    ev('turn/end', { turn: n }),
  ];
  mkdirSync(join(home, 'sessions', 'app', id), { recursive: true });
  writeFileSync(
    join(home, 'sessions', 'app', id, 'session.v4.jsonl.zstd'),
    Buffer.concat([frame([{ type: 'session/header', data: { id, cwd: '/work/app', createdAt: t0 } }]), ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => frame(turn(n)))]),
  );
  const { host, engine } = await loadPlugin(t, { corpus: makeCorpus([]), config: { tools: LEAN, sessions: { dshHome: home } } });
  const written = await engine.write({ title: '第 5 个结论', content: '会话里第 5 个结论,记下来以后用。', meta: { workspace: 'global', sessionId: id, origin: 'agent' } });
  const session = host.createSession({ cwd: '/work/app' });

  const source = await call(host, 'engram_history', { id: written.docId }, session);
  assert.equal(source.value.layer, 'session');
  assert.equal(source.value.result.source.turn, 5, source.text);
  assert.match(source.text, /第 5 个结论/);
  assert.doesNotMatch(source.text, /session_read/, 'the text names the lean call');

  const thinking = await call(host, 'engram_history', { id: id.slice(0, 8), view: 'thinking' }, session);
  assert.match(thinking.text, /THINKING-1/);
  const raw = await call(host, 'engram_history', { id: id.slice(0, 8), view: 'raw' }, session);
  assert.match(raw.text, /assistant\/message/);
  const inside = await call(host, 'engram_history', { id: id.slice(0, 8), q: '第 7 个问题' }, session);
  assert.equal(inside.value.layer, 'session', 'q with an id searches that session, not the compacted turns');
  assert.equal(inside.value.result.hits[0], 7, inside.text);
  const badView = await call(host, 'engram_history', { id: id.slice(0, 8), view: 'everything' }, session, true);
  assert.match(badView.text, /\[invalid-arguments\][^\n]*view/);
  await host.settle();
  host.assertClean();
});

test('every lean tool with arbitrary arguments: a value that fits its output.schema, or its own "[code] …" error', { timeout: 300_000 }, async (t) => {
  const fc = (await import('fast-check')).default;
  const { fragmentText } = await import('../../../packages/engine/test/reliability/arbitraries.ts');
  const { host } = await loadPlugin(t, { config: { tools: LEAN } });
  const session = host.createSession({ cwd: '/work/app' });
  const any0 = fc.anything({ maxDepth: 0 });
  const args = fc.oneof(
    fc.record(
      {
        q: fc.oneof(fragmentText(8), any0),
        id: fc.oneof(fc.constantFrom('../x', '/etc/passwd', '2026-03-01-周报写作流程.txt', ''), any0),
        seg: fc.oneof(fc.array(fc.integer({ min: -2, max: 9 }), { maxLength: 3 }), any0),
        page: fc.oneof(fc.integer({ min: -1, max: 5 }), any0),
        content: fc.oneof(fragmentText(10), any0),
        target: fc.oneof(fc.constant('周报每周五下午写,先列本周完成的任务'), any0),
        forget: any0,
        global: any0,
        say: fc.oneof(fragmentText(6), any0),
        to: any0,
        wall: any0,
        book: fc.oneof(fc.constantFrom('notes', 'rules', 'minor', 'x'), any0),
        replace: any0,
        from: any0,
        view: fc.oneof(fc.constantFrom('thinking', 'raw', 'turns', 'x'), any0),
      },
      { requiredKeys: [] },
    ),
    fc.anything({ maxDepth: 2 }),
  );
  const codes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('engram', 'engram_save', 'engram_sync', 'engram_history'), args, async (name, a) => {
      const result = await host.tools!.call(name, JSON.stringify(a) ?? 'null', session);
      if (!result.error) {
        assert.ok(['search', 'index', 'locate', 'detail', 'guide', 'write', 'edit', 'forget', 'brief', 'wall', 'notebook', 'sessions', 'session', 'compacted'].includes((result.value as { layer: string }).layer));
        codes.set('ok', (codes.get('ok') ?? 0) + 1);
        return;
      }
      assert.notEqual(result.error.code, 'invalid-output', `${name}: ${result.text}`);
      // Argument errors the host finds itself (schema types) come with its own message; the tools' errors carry a code.
      const code = result.error.code === 'invalid-arguments' ? 'host:invalid-arguments' : /\[([a-z-]+)\]/.exec(result.text)?.[1];
      assert.ok(code, `${name}: an error the model cannot act on: ${result.text}`);
      assert.notEqual(code, 'failed', `${name}: a crash inside the tool: ${result.text}`);
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }),
    { numRuns: Number(process.env.ENGRAM_FUZZ_RUNS) || 400 },
  );
  assert.ok((codes.get('ok') ?? 0) > 0, 'some calls succeeded');
  console.log(`# lean tool fuzz ${JSON.stringify(Object.fromEntries(codes))}`);
});
