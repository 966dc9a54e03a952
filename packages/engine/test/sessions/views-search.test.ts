// session_read on par with the seed's mem_source: the thinking and raw views of a turn, search inside
// one session by words (the engine's tokenizer, not substrings), a memory's place in its source
// session, and readSessionById tying them together over a DSH home of real-shaped logs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { draftImports } from '../../src/sessions/import.ts';
import { readSessionBytes, type SessionLog } from '../../src/sessions/log.ts';
import { sessionReadPage } from '../../src/sessions/read.ts';
import { searchSession, sessionSearchPage } from '../../src/sessions/search.ts';
import { memoryAnchor } from '../../src/sessions/source.ts';
import { memoryLookup, readSessionById, type SourceMemory } from '../../src/sessions/tool-read.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { concat, EventWriter, frameOf, richSession, simpleTurn, T0, writeLog, zstdReady } from './fixtures.ts';
import { IDS, makeHome } from './home.ts';

const jieba = createTokenizer({ kind: 'auto' });

async function rich(keepRaw = false): Promise<SessionLog> {
  await zstdReady();
  return readSessionBytes(concat(richSession().frames), { keepRaw });
}

/** Eight turns about different things, one minute apart from 10:00 local. */
function eightTurns(id = 'e1e1e1e1-0000-4000-8000-000000000008'): { log: SessionLog; bytes: Uint8Array; id: string } {
  const w = new EventWriter(new Date(2026, 2, 10, 10, 0).getTime() - 1000);
  const said: [string, string][] = [
    ['东京节点 443 端口被占用了怎么办?', '443 被 nginx 占用,改用 8443。'],
    ['周报应该怎么写?', '周报每周五下午写,列三件事。'],
    ['终端里口令输错三次会怎样?', '账户会锁定十分钟。'],
    ['数据库迁移脚本报 duplicate column', '这一列已经加过了,迁移前先检查。'],
    ['防火墙要不要放行 8443?', '要,ufw allow 8443/tcp,然后重启了 sing-box。'],
    ['猫粮一天喂几次?', '成年猫一天两次。'],
    ['README 翻译成英文', 'Here is the English README.'],
    ['周末去杭州玩什么?', '西湖和灵隐寺。'],
  ];
  const rows: unknown[] = [{ type: 'session/header', data: { id, cwd: '/work/alpha', createdAt: w.time } }];
  said.forEach(([u, a], i) => {
    // One minute per turn: the time channel of a memory's place has something to go by.
    w.time = new Date(2026, 2, 10, 10, i).getTime() - 1000;
    rows.push(...simpleTurn(w, i + 1, u, a));
  });
  const bytes = frameOf(rows);
  return { log: readSessionBytes(bytes), bytes, id };
}

test('views: turns leave the reasoning out, thinking puts it before each answer, raw shows the stored messages in log order', async () => {
  const log = await rich(true);
  const turns = sessionReadPage(log, { maxChars: 8000 }).text;
  assert.doesNotMatch(turns, /THOUGHT|INLINE-THINK/);

  const thinking = sessionReadPage(log, { maxChars: 8000, view: 'thinking' }).text;
  assert.match(thinking, /共 2 轮 · 工作目录 \/work\/alpha · 含思考/);
  assert.match(thinking, /用户:东京节点 443 端口被占用了怎么办\?\n思考:THOUGHT-ONE 先想想\n\nTHOUGHT-TWO\n助手:443 被 nginx 占用/);
  assert.match(thinking, /思考:THOUGHT-THREE\n\nINLINE-THINK\n助手:周报每周五下午写/);
  assert.doesNotMatch(thinking, /INJECTED|PLUGIN-ONLY|DIARY-BLOCK/, 'the thinking view is still what was said, plus the reasoning');

  const raw = sessionReadPage(log, { maxChars: 20_000, view: 'raw' }).text;
  assert.match(raw, /· 原始消息/);
  // As stored: the person's message with what was injected into it, the plugins' messages, every block.
  for (const expected of [
    /\[#\d+ user\/message · 用户\]\n东京节点 443 端口被占用了怎么办\?\n<engram-recall date="2026-03-01">INJECTED-RECALL 旧记忆<\/engram-recall>/,
    /\[#\d+ user\/message · 插件 engram\/recall\]\n<engram-recall>PLUGIN-ONLY 整条注入<\/engram-recall>/,
    /\[#\d+ user\/message · 插件 system-prompt\/snapshot\]\n工作区快照 SNAPSHOT-TEXT/,
    /\[#\d+ assistant\/message · step 1\]\n〔思考〕THOUGHT-ONE 先想想\n我先看一下配置文件。/,
    /\[#\d+ tool\/call · read_file\]\n\{"path":"etc\/sing-box\.json","limit":200\}/,
    /\[#\d+ tool\/result · call-2 · 出错\]\npermission denied/,
    /DIARY-BLOCK/,
    /〔思考〕THOUGHT-THREE\n<think>INLINE-THINK<\/think>周报每周五下午写/,
  ])
    assert.match(raw, expected);
  const seqs = [...raw.matchAll(/\[#(\d+) /g)].map((m) => Number(m[1]));
  assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'log order');

  const notKept = sessionReadPage(await rich(false), { maxChars: 8000, view: 'raw' }).text;
  assert.match(notKept, /没有读取原始消息/);
});

test('raw view: a tool call is shown once (its event, not also its block), a call without an event from its block, a huge result clipped', async () => {
  await zstdReady();
  const w = new EventWriter(T0);
  const rows = [
    { id: 'raw-calls' },
    w.turnStart(1),
    w.person('读一下日志'),
    w.ev('assistant/message', { turn: 1, step: 1, message: { content: [{ type: 'tool-call', id: 'k1', name: 'read_file', arguments: '{"path":"a.log"}' }, { type: 'tool-call', id: 'k2', name: 'grep', arguments: '{"pattern":"ERR"}' }] } }),
    w.call(1, 'read_file', { path: 'a.log' }, 'k1'),
    w.result(1, 'k1', 'x'.repeat(5000)),
    w.assistant(1, '日志里没有错误。', undefined, 2),
    w.turnEnd(1),
  ];
  const log = readSessionBytes(frameOf(rows), { keepRaw: true });
  const raw = sessionReadPage(log, { maxChars: 20_000, view: 'raw' }).text;
  assert.equal(raw.match(/a\.log/g)?.length, 1, 'read_file once');
  assert.match(raw, /〔调用 grep〕\{"pattern":"ERR"\}/);
  assert.match(raw, /x{1000}.*\(原文 5000 字,已截断\)/s);
  assert.ok(!raw.includes('x'.repeat(2001)));
});

test('paging keeps the view: the "more" line asks for the next turns in the same view', () => {
  const w = new EventWriter(T0);
  const rows: unknown[] = [{ id: 'paged-view-0000' }];
  for (let i = 1; i <= 6; i++) rows.push(w.turnStart(i), w.person(`问题 ${i} ${'背景'.repeat(100)}`), w.assistant(i, `回答 ${i}`, `思考 ${i} ${'推理'.repeat(100)}`), w.turnEnd(i));
  const log = readSessionBytes(frameOf(rows));
  const page = sessionReadPage(log, { maxChars: 1200, view: 'thinking' });
  assert.ok(page.nextFrom !== null);
  assert.match(page.text, new RegExp(`session_read\\(\\{ id: "paged-vi", from: ${page.nextFrom}, view: "thinking" \\}\\)`));
});

test('search inside a session: words, not substrings — in any order, through the answer and the tools; a lone shared character is no hit', () => {
  const { log } = eightTurns();
  // Not a substring of any turn: the words are there, in another order.
  assert.deepEqual(
    searchSession(log, '端口 东京', jieba).map((h) => h.turn),
    [1],
    '终端里口令 shares 端 and 口 with 端口, no word',
  );
  assert.deepEqual(
    searchSession(log, 'sing-box 重启', jieba).map((h) => h.turn),
    [5],
    'found in the answer',
  );
  const both = searchSession(log, '8443', jieba);
  assert.deepEqual(
    both.map((h) => h.turn),
    [5, 1],
    'the turn whose person asked about it first',
  );
  assert.deepEqual(searchSession(log, '量子计算', jieba), []);
});

test('search text: the hits in turn order with a shortened turn of context either side; no hit says so and shows the last turns', () => {
  const { log } = eightTurns();
  const page = sessionSearchPage(log, '防火墙', jieba, { maxChars: 3000 });
  assert.deepEqual(
    page.hits.map((h) => h.turn),
    [5],
  );
  assert.match(page.text, /在这次会话里搜「防火墙」:命中 1 轮\(第 5 轮/);
  assert.match(page.text, /·· 第 4 轮\(上下文\)\n用户:数据库迁移脚本报 duplicate column[\s\S]*★ 命中:防火墙\n—— 第 5 轮 · 10:04 ——\n用户:防火墙要不要放行 8443\?[\s\S]*·· 第 6 轮\(上下文\)/);
  assert.doesNotMatch(page.text, /第 3 轮|第 7 轮/);

  const none = sessionSearchPage(log, '量子计算', jieba, { maxChars: 3000 });
  assert.deepEqual(none.hits, []);
  assert.match(none.text, /没有哪一轮提到「量子计算」;下面是最后 2 轮/);
  assert.match(none.text, /—— 第 7 轮[\s\S]*—— 第 8 轮/);
});

test('search stays within the page budget, however long the turns', () => {
  const w = new EventWriter(T0);
  const rows: unknown[] = [{ id: 'long-search' }];
  for (let i = 1; i <= 5; i++) rows.push(...simpleTurn(w, i, `防火墙 第 ${i} 轮 ${'背景'.repeat(2000)}`, `回答 ${'说明'.repeat(2000)}`));
  const log = readSessionBytes(frameOf(rows));
  for (const maxChars of [800, 2000, 8000]) {
    const page = sessionSearchPage(log, '防火墙', jieba, { maxChars });
    assert.ok(page.text.length <= maxChars, `${page.text.length} > ${maxChars}`);
    assert.match(page.text, /已截断/);
  }
});

test('reasoning is searched in the thinking view only', async () => {
  const log = await rich();
  assert.deepEqual(searchSession(log, 'THOUGHT-THREE', jieba), []);
  assert.equal(searchSession(log, 'THOUGHT-THREE', jieba, { thinking: true })[0]!.turn, 2);
  assert.match(sessionSearchPage(log, 'THOUGHT-THREE', jieba, { maxChars: 3000, view: 'thinking' }).text, /★ 命中[\s\S]*思考:THOUGHT-THREE/);
});

test('a memory’s place in its session: the turns an import names, else its words, else its time, else the end', () => {
  const { log, id } = eightTurns();
  const memory = (text: string, time = '') => ({ docId: 'm1', title: '', text, date: '2026-03-10', time });
  // An import memory of this session names its turns.
  const draft = draftImports(log, { tokenizer: jieba }).find((d) => d.fromTurn === 5)!;
  assert.deepEqual(memoryAnchor(log, memory(draft.body), jieba), { from: 5, to: draft.toTurn, turn: 5, how: 'import' });
  // Another session's import is not read for its turn numbers.
  assert.equal(memoryAnchor(log, memory(draft.body.replace(id, 'ffffffff-other')), jieba)!.how, 'words');
  // A note written during the session: the turn it talks about, with one either side.
  assert.deepEqual(memoryAnchor(log, { ...memory('数据库迁移遇到 duplicate column 时,先检查列是否已经存在。'), title: '迁移脚本的教训' }, jieba), { from: 3, to: 5, turn: 4, how: 'words' });
  // Words that place it nowhere: the turn under way at its time (10:05 → turn 6).
  assert.deepEqual(memoryAnchor(log, memory('记下了。', '10:05'), jieba), { from: 5, to: 7, turn: 6, how: 'time' });
  assert.deepEqual(memoryAnchor(log, memory('记下了。'), jieba), { from: 6, to: 8, turn: 8, how: 'end' });
});

test('readSessionById: a session id, a memory’s id (its source session, where it came from), q inside either, and the errors', async (t) => {
  const home = await makeHome(t);
  const { bytes, id: eightId } = eightTurns();
  writeLog(home, 'alpha', eightId, bytes);
  const memories = new Map<string, SourceMemory>([
    ['0123456789abcdef', { docId: '0123456789abcdef', title: '迁移脚本的教训', text: '数据库迁移遇到 duplicate column 时,先检查列是否已经存在。', date: '2026-03-10', time: '10:03', sessionId: eightId }],
    ['feedfacefeedface', { docId: 'feedfacefeedface', title: '控制台写的', text: '没有出处', date: '2026-03-10', time: '', sessionId: null }],
    ['deadbeefdeadbeef', { docId: 'deadbeefdeadbeef', title: '别的机器', text: 'x', date: '2026-03-10', time: '', sessionId: '99999999-0000-4000-8000-000000000000' }],
    ['5e5510115e551011', { docId: '5e5510115e551011', title: '前缀带 session-', text: '端口', date: '2026-03-10', time: '', sessionId: `session-${IDS.rich}` }],
  ]);
  const deps = { home, maxChars: 8000, tokenizer: () => jieba, memory: async (id: string) => memories.get(id) ?? null };

  const bySession = await readSessionById({ id: IDS.rich.slice(0, 8), view: 'thinking' }, deps);
  assert.deepEqual([bySession.id, bySession.view, bySession.from, bySession.to, bySession.source], [IDS.rich, 'thinking', 1, 2, undefined]);
  assert.match(bySession.text, /思考:THOUGHT-ONE/);

  const bySource = await readSessionById({ id: '0123456789abcdef' }, deps);
  assert.equal(bySource.id, eightId);
  assert.deepEqual(bySource.source, { docId: '0123456789abcdef', turn: 4, how: 'words' });
  assert.deepEqual([bySource.from, bySource.to], [3, 5]);
  assert.match(bySource.text, /记忆「迁移脚本的教训」\(docId: 0123456789abcdef\)的出处:第 4 轮附近\(按记忆的内容定位\)/);
  assert.match(bySource.text, /—— 第 3 轮[\s\S]*—— 第 4 轮[\s\S]*—— 第 5 轮/);
  assert.doesNotMatch(bySource.text, /—— 第 6 轮/);

  const searched = await readSessionById({ id: '0123456789abcdef', q: '猫粮' }, deps);
  assert.deepEqual(searched.hits, [6]);
  assert.match(searched.text, /的出处[\s\S]*★ 命中:猫粮/);

  const raw = await readSessionById({ id: IDS.rich, view: 'raw', from: 2, to: 2 }, deps);
  assert.match(raw.text, /〔思考〕THOUGHT-THREE/);
  assert.doesNotMatch(raw.text, /—— 第 1 轮/);

  assert.equal((await readSessionById({ id: '5e5510115e551011' }, deps)).id, IDS.rich, 'a host-prefixed session id is found by its bare id');

  await assert.rejects(readSessionById({ id: 'feedfacefeedface' }, deps), { code: 'no-source', message: /records no source session/ });
  await assert.rejects(readSessionById({ id: 'deadbeefdeadbeef' }, deps), { code: 'not-found', message: /whose log is not under/ });
  await assert.rejects(readSessionById({ id: 'zzzz' }, deps), { code: 'not-found', message: /no session or memory with id or prefix "zzzz"/ });
  await assert.rejects(readSessionById({ id: 'zzzz' }, { ...deps, memory: undefined }), { message: /no session with id/ });
  await assert.rejects(readSessionById({ id: 'a1b2' }, deps), { code: 'ambiguous' });
});

test('memoryLookup: an engine reader’s memory, and "not a memory" for what the caller may not read or cannot be read', async () => {
  const detail = { docId: 'd1', title: 'T', raw: '[10:00] T\n\n正文', date: '2026-03-10', time: '10:00', sessionId: 's1', workspace: 'ws-a' };
  const reader = {
    read: async (id: string) => {
      if (id === 'broken') throw new Error('EACCES');
      return id === 'd1' ? (detail as never) : null;
    },
  };
  assert.deepEqual(await memoryLookup(reader)('d1'), { docId: 'd1', title: 'T', text: detail.raw, date: '2026-03-10', time: '10:00', sessionId: 's1' });
  assert.equal(await memoryLookup(reader, (ws) => ws === 'ws-b')('d1'), null);
  assert.equal(await memoryLookup(reader)('broken'), null);
  assert.equal(await memoryLookup(reader)('nope'), null);
});

test('a memory is placed by what it says, not by its file\'s markup (the time it was written, its Meta line)', async () => {
  await zstdReady();
  const w = new EventWriter(new Date(2026, 2, 9, 9, 30).getTime());
  const rows: unknown[] = [{ id: 'markup' }];
  for (let i = 1; i <= 12; i++) rows.push(...simpleTurn(w, i, `第 ${i} 个问题`, `第 ${i} 个结论,见 notes/${i}.md`));
  const log = readSessionBytes(frameOf(rows));
  // Written at 00:11: the time's 11 named turn 11 before the words of turn 7 did.
  for (const written of ['00:11', '09:03', '12:00']) {
    const text = `[${written}] 端口排查第 7 个结论\n\n端口排查的第 7 个结论,记下来以后用。\n\nMeta: workspace=global session=markup origin=agent\n`;
    const anchor = memoryAnchor(log, { docId: 'm1', title: '端口排查第 7 个结论', text, date: '2026-03-09', time: written }, jieba);
    assert.deepEqual([anchor?.turn, anchor?.how], [7, 'words'], written);
  }
});
