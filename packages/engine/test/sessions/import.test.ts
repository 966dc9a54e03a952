// Importing sessions as memories on a real libSQL file: one memory per topic with a section per
// turn, the reasoning when asked; a second run skips; a continued log updates the same memory (or
// adds one for a new topic) instead of adding a duplicate; a session imported whole before topics
// existed keeps its memory as its first topic's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listSessionImports, openDatabase, upsertSessionImport } from '@engram/db';
import { formatDiary } from '../../src/diary/format.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { splitSegments } from '../../src/segments/split.ts';
import { draftImports, importSessions, planImport, type SessionMemoryDraft } from '../../src/sessions/import.ts';
import { listSessions, loadSession } from '../../src/sessions/list.ts';
import { readSessionBytes, type SessionLog } from '../../src/sessions/log.ts';
import { concat, EventWriter, frameOf, richSession, simpleTurn, T0, writeLog, zstdReady } from './fixtures.ts';
import { IDS, makeHome } from './home.ts';

async function openDb(t: { after(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sess-import-'));
  const database = await openDatabase({ url: `file:${join(dir, 'engram.db')}` });
  t.after(() => {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return database.db;
}

function fakeWriter() {
  const calls: { op: 'write' | 'update'; path: string; draft: SessionMemoryDraft }[] = [];
  let n = 0;
  return {
    calls,
    writeMemory: async (draft: SessionMemoryDraft) => {
      const path = `imports/${draft.date}-${++n}.txt`;
      calls.push({ op: 'write', path, draft });
      return { path };
    },
    updateMemory: async (path: string, draft: SessionMemoryDraft) => {
      calls.push({ op: 'update', path, draft });
    },
  };
}

const logsOf = async (home: string, cwd: string): Promise<SessionLog[]> =>
  Promise.all((await listSessions(home, { cwd })).map((item) => loadSession(item.file, { fallbackId: item.id })));

test('draft: one memory per topic, one ## section per turn, local date and time of the start, person text quoted', async () => {
  await zstdReady();
  const log = readSessionBytes(concat(richSession().frames));
  // The rich session asks two unrelated things: a port taken on a node, then how to write a weekly report.
  const drafts = draftImports(log);
  assert.equal(drafts.length, 2);
  const [draft, report] = drafts as [SessionMemoryDraft, SessionMemoryDraft];
  assert.equal(draft.date, '2026-03-09');
  assert.equal(draft.time, '09:30');
  assert.equal(draft.sessionId, log.id);
  assert.deepEqual([draft.key, draft.fromTurn, draft.toTurn, draft.turns], [log.id, 1, 1, 1], 'the first topic keeps the session id as its import key');
  assert.deepEqual([report.key, report.fromTurn, report.toTurn, report.sessionId], [`${log.id}#2`, 2, 2, log.id]);
  assert.equal(draft.title, '东京节点 443 端口被占用了怎么办?(会话 a1b2c3d4 · 第 1 轮)');
  assert.equal(report.title, '周报应该怎么写?(会话 a1b2c3d4 · 第 2 轮)', 'the person’s "## " is not part of the title');
  assert.deepEqual(draft.tags, ['会话导入']);
  assert.match(draft.sourceHash, /^[0-9a-f]{40}$/);
  assert.match(draft.body, /^DSH 会话 a1b2c3d4-1111-4aaa-8bbb-000000000001,工作目录 \/work\/alpha,第 1–1 轮。/);
  assert.equal((report.body.match(/^## /gm) ?? []).length, 1, 'the person’s "## 周报" line is not a section of its own');
  assert.match(draft.body, /用户:\n> 东京节点 443 端口被占用了怎么办?/);
  assert.match(draft.body, /结论:\n> 443 被 nginx 占用/);
  assert.match(draft.body, /工具:read_file\(path=etc\/sing-box\.json, limit=200\)、bash\(command=ss -ltnp \| grep 443\) ✗/);
  for (const body of [draft.body, report.body]) for (const leaked of ['INJECTED', 'THOUGHT', 'INLINE-THINK', 'DIARY-BLOCK', 'PLUGIN-ONLY', '思考:']) assert.ok(!body.includes(leaked), leaked);

  // Through the diary format and back: the person's "Tag:" line does not become the memory's tags.
  const raw = formatDiary({ time: report.time, title: report.title, body: report.body, tags: report.tags });
  const parsed = parseDiaryText(raw, { root: 'diary', path: 'imports/x.txt', mtimeMs: T0, size: raw.length, archiveFolder: 'archive', requireTag: true, timePrefix: true });
  assert.deepEqual(parsed.tags, ['会话导入']);
  assert.equal(parsed.title, report.title);
  // Scraps are not merged here: the point is where the section boundaries are.
  const whole = draftImports(log, { splitTopics: false })[0]!;
  assert.equal(whole.title, '东京节点端口与周报(会话 a1b2c3d4)', 'one topic: the session’s own title');
  const wholeParsed = parseDiaryText(formatDiary({ time: whole.time, title: whole.title, body: whole.body, tags: whole.tags }), { root: 'diary', path: 'imports/y.txt', mtimeMs: T0, size: 1, archiveFolder: 'archive', requireTag: true, timePrefix: true });
  const headings = splitSegments(wholeParsed.body, { minChars: 0 }).map((s) => s.heading);
  assert.deepEqual(headings.filter((h) => h !== ''), ['第 1 轮 · 09:30', '第 2 轮 · 09:30']);

  assert.deepEqual(draftImports(readSessionBytes(frameOf([{ id: 'empty' }]))), [], 'nothing said, nothing imported');
  assert.deepEqual(draftImports(log).map((d) => d.sourceHash), drafts.map((d) => d.sourceHash), 'stable hashes');
});

test('with thinking, each turn keeps the model’s reasoning (blocks and inline <think>) before its conclusion; still no injected text', async () => {
  await zstdReady();
  const log = readSessionBytes(concat(richSession().frames));
  const [port, report] = draftImports(log, { thinking: true }) as [SessionMemoryDraft, SessionMemoryDraft];
  assert.match(port.body, /思考:\n> THOUGHT-ONE 先想想\n>\n> THOUGHT-TWO\n\n结论:\n> 443 被 nginx 占用/);
  assert.match(report.body, /思考:\n> THOUGHT-THREE\n>\n> INLINE-THINK\n\n结论:\n> 周报每周五下午写/);
  for (const leaked of ['INJECTED', 'DIARY-BLOCK', 'PLUGIN-ONLY', '<think>']) assert.ok(!port.body.includes(leaked) && !report.body.includes(leaked), leaked);
  assert.notEqual(port.sourceHash, draftImports(log)[0]!.sourceHash, 'the reasoning is part of what is imported');
  const w = new EventWriter(T0);
  const long = readSessionBytes(frameOf([{ id: 'long-thought' }, w.turnStart(1), w.person('问'), w.assistant(1, '答', '想'.repeat(5000)), w.turnEnd(1)]));
  assert.equal(/思考:\n> (想+…)/.exec(draftImports(long, { thinking: true })[0]!.body)![1]!.length, 3000, 'reasoning is trimmed per turn');
});

test('long turns are trimmed per turn; the person keeps more room than the conclusion', async () => {
  await zstdReady();
  const w = new EventWriter(T0);
  const log = readSessionBytes(frameOf([{ id: 'long' }, ...simpleTurn(w, 1, '问'.repeat(5000), '答'.repeat(5000))]));
  const draft = draftImports(log)[0]!;
  const user = /用户:\n> (问+…)/.exec(draft.body)![1]!;
  const answer = /结论:\n> (答+…)/.exec(draft.body)![1]!;
  assert.equal(user.length, 1500);
  assert.equal(answer.length, 800);
});

test('import is idempotent: skip unchanged, update a continued topic in place, add a new topic, record every topic', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const progress: [number, number][] = [];

  const logs = await logsOf(home, '/work/alpha');
  assert.equal(logs.length, 2);
  const preview = await planImport(db, logs);
  assert.deepEqual(
    preview.map((p) => [p.status, p.topics.length]),
    [
      ['new', 1],
      ['new', 2],
    ],
    'newest first: the sub-folder session (one topic), then the rich one (two)',
  );

  const first = await importSessions({ db, ...writer }, logs, { workspace: 'ws-alpha', onProgress: (d, n) => progress.push([d, n]) });
  assert.deepEqual(first, { imported: 3, updated: 0, skipped: 0, empty: 0, failed: [] }, 'the rich session’s two topics are two memories');
  assert.deepEqual(progress, [
    [1, 2],
    [2, 2],
  ]);
  assert.equal(writer.calls.length, 3);
  assert.ok(writer.calls.every((c) => c.op === 'write'));
  const rows = await listSessionImports(db, { workspace: 'ws-alpha' });
  assert.deepEqual(rows.map((r) => r.sessionId).sort(), [IDS.rich, `${IDS.rich}#2`, IDS.sub].sort());
  assert.equal(rows.find((r) => r.sessionId === IDS.rich)!.turns, 1);

  const again = await importSessions({ db, ...writer }, await logsOf(home, '/work/alpha'), { workspace: 'ws-alpha' });
  assert.deepEqual(again, { imported: 0, updated: 0, skipped: 3, empty: 0, failed: [] });
  assert.equal(writer.calls.length, 3, 'nothing written on the second run');
  assert.deepEqual((await planImport(db, await logsOf(home, '/work/alpha'))).map((p) => p.status), ['unchanged', 'unchanged']);

  // The session goes on: a third turn follows up on the weekly report (the second topic).
  const rich = richSession(IDS.rich, '/work/alpha', T0);
  const w = new EventWriter(T0 + 3600_000);
  w.seq = 100;
  const turn3 = frameOf(simpleTurn(w, 3, '周报里的三件事按什么顺序列?', '按重要程度列,最重要的放第一件。'));
  writeLog(home, 'alpha', IDS.rich, concat([...rich.frames, turn3]));
  const continued = await importSessions({ db, ...writer }, await logsOf(home, '/work/alpha'), { workspace: 'ws-alpha' });
  assert.deepEqual(continued, { imported: 0, updated: 1, skipped: 2, empty: 0, failed: [] });
  const update = writer.calls.at(-1)!;
  assert.equal(update.op, 'update');
  assert.equal(update.path, writer.calls.find((c) => c.op === 'write' && c.draft.key === `${IDS.rich}#2`)!.path, 'the same memory');
  assert.equal((update.draft.body.match(/^## /gm) ?? []).length, 2, 'turns 2 and 3');
  assert.equal((await listSessionImports(db)).find((r) => r.sessionId === `${IDS.rich}#2`)!.turns, 2);

  // And on again, about something else: a new memory; the two earlier ones are left alone.
  const turn4 = frameOf(simpleTurn(w, 4, '数据库迁移脚本报 duplicate column,怎么处理?', '这一列已经加过了:迁移前先检查列是否存在。'));
  writeLog(home, 'alpha', IDS.rich, concat([...rich.frames, turn3, turn4]));
  const added = await importSessions({ db, ...writer }, await logsOf(home, '/work/alpha'), { workspace: 'ws-alpha' });
  assert.deepEqual(added, { imported: 1, updated: 0, skipped: 3, empty: 0, failed: [] });
  assert.equal(writer.calls.at(-1)!.draft.key, `${IDS.rich}#4`);
  assert.equal((await listSessionImports(db)).length, 4, 'no duplicate record');
});

test('a session imported whole before topics existed: its memory becomes the first topic’s, updated in place; the others are new', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const [rich] = (await logsOf(home, '/work/alpha')).filter((l) => l.id === IDS.rich);
  // What the one-memory-per-session import left: a row under the bare session id, an older hash.
  await upsertSessionImport(db, { sessionId: IDS.rich, workspace: 'ws-alpha', path: 'imports/old-whole.txt', sourceHash: 'f'.repeat(40), turns: 2, importedAt: new Date(T0).toISOString() });
  const plan = await planImport(db, [rich!]);
  assert.deepEqual(plan[0]!.topics.map((p) => [p.key, p.status, p.path]), [
    [IDS.rich, 'changed', 'imports/old-whole.txt'],
    [`${IDS.rich}#2`, 'new', null],
  ]);
  assert.equal(plan[0]!.status, 'changed');
  const report = await importSessions({ db, ...writer }, [rich!], { workspace: 'ws-alpha' });
  assert.deepEqual(report, { imported: 1, updated: 1, skipped: 0, empty: 0, failed: [] });
  assert.deepEqual(writer.calls.map((c) => [c.op, c.draft.key]), [
    ['update', IDS.rich],
    ['write', `${IDS.rich}#2`],
  ]);
  assert.equal(writer.calls[0]!.path, 'imports/old-whole.txt');
});

test('reasoning on request: an import with it is unchanged to a listing, rewritten only when asked without it', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const logs = await logsOf(home, '/work/alpha');
  assert.deepEqual(await importSessions({ db, ...writer }, logs, { workspace: 'w', thinking: true }), { imported: 3, updated: 0, skipped: 0, empty: 0, failed: [] });
  assert.match(writer.calls.find((c) => c.draft.key === IDS.rich)!.draft.body, /思考:\n> THOUGHT-ONE/);
  // A listing does not know how the next import will be asked for: either way counts as imported.
  assert.deepEqual((await planImport(db, logs)).map((p) => p.status), ['unchanged', 'unchanged']);
  assert.deepEqual(await importSessions({ db, ...writer }, logs, { workspace: 'w' }), { imported: 0, updated: 0, skipped: 3, empty: 0, failed: [] }, 'the default keeps the reasoning already imported');
  assert.deepEqual((await planImport(db, logs, { thinking: false })).map((p) => p.status), ['unchanged', 'changed'], 'asked without it, a session with reasoning is rewritten (the sub-folder one had none)');
});

test('a failed write is reported and retried next time; the same session twice in one call is written once', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const logs = await logsOf(home, '/work/alpha');
  let fail = true;
  const flaky = {
    db,
    ...writer,
    writeMemory: async (draft: SessionMemoryDraft) => {
      if (fail && draft.sessionId === IDS.sub) throw new Error('disk full');
      return writer.writeMemory(draft);
    },
  };
  const first = await importSessions(flaky, logs, { workspace: 'w' });
  assert.equal(first.imported, 2);
  assert.deepEqual(first.failed, [{ sessionId: IDS.sub, error: 'disk full' }]);
  fail = false;
  const second = await importSessions(flaky, [...logs, ...logs], { workspace: 'w' });
  assert.deepEqual(second, { imported: 1, updated: 0, skipped: 2, empty: 0, failed: [] });
  assert.equal(writer.calls.filter((c) => c.draft.sessionId === IDS.sub).length, 1);
});

test('concurrent imports of one database do not write a topic twice', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const logs = await logsOf(home, '/work/alpha');
  const [a, b] = await Promise.all([importSessions({ db, ...writer }, logs, { workspace: 'w' }), importSessions({ db, ...writer }, logs, { workspace: 'w' })]);
  assert.equal(a.imported + b.imported, 3);
  assert.equal(a.skipped + b.skipped, 3);
  assert.equal(writer.calls.length, 3);
});

test('damaged and empty sessions: what survives is imported, an empty one is counted', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const beta = await logsOf(home, '/work/beta');
  assert.equal(beta[0]!.damage.badFrames, 2);
  const empty = readSessionBytes(frameOf([{ id: 'nothing-said', cwd: '/work/beta' }]));
  const report = await importSessions({ db, ...writer }, [...beta, empty], { workspace: 'beta' });
  assert.deepEqual(report, { imported: 1, updated: 0, skipped: 0, empty: 1, failed: [] });
  const body = writer.calls[0]!.draft.body;
  assert.match(body, /beta 第一轮问题/);
  assert.match(body, /beta 第三轮问题/);
  assert.doesNotMatch(body, /LOST|TRUNCATED/);
});
