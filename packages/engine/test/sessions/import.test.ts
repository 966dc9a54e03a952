// Importing sessions as memories on a real libSQL file: one memory per session with a section per
// turn; a second run skips; a changed log updates the same memory instead of adding one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { listSessionImports, openDatabase } from '@engram/db';
import { formatDiary } from '../../src/diary/format.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { splitSegments } from '../../src/segments/split.ts';
import { draftImport, importSessions, planImport, type SessionMemoryDraft } from '../../src/sessions/import.ts';
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

test('draft: one ## section per turn, local date and time of the start, person text quoted', async () => {
  await zstdReady();
  const log = readSessionBytes(concat(richSession().frames));
  const draft = draftImport(log)!;
  assert.equal(draft.date, '2026-03-09');
  assert.equal(draft.time, '09:30');
  assert.equal(draft.sessionId, log.id);
  assert.equal(draft.turns, 2);
  assert.equal(draft.title, '东京节点端口与周报(会话 a1b2c3d4)');
  assert.deepEqual(draft.tags, ['会话导入']);
  assert.match(draft.sourceHash, /^[0-9a-f]{40}$/);
  assert.equal((draft.body.match(/^## /gm) ?? []).length, 2, 'the person’s "## 周报" line is not a section of its own');
  assert.match(draft.body, /用户:\n> 东京节点 443 端口被占用了怎么办?/);
  assert.match(draft.body, /结论:\n> 443 被 nginx 占用/);
  assert.match(draft.body, /工具:read_file\(path=etc\/sing-box\.json, limit=200\)、bash\(command=ss -ltnp \| grep 443\) ✗/);
  for (const leaked of ['INJECTED', 'THOUGHT', 'DIARY-BLOCK', 'PLUGIN-ONLY']) assert.ok(!draft.body.includes(leaked), leaked);

  // Through the diary format and back: the person's "Tag:" line does not become the memory's tags.
  const raw = formatDiary({ time: draft.time, title: draft.title, body: draft.body, tags: draft.tags });
  const parsed = parseDiaryText(raw, { root: 'diary', path: 'imports/x.txt', mtimeMs: T0, size: raw.length, archiveFolder: 'archive', requireTag: true, timePrefix: true });
  assert.deepEqual(parsed.tags, ['会话导入']);
  assert.equal(parsed.title, draft.title);
  // Scraps are not merged here: the point is where the section boundaries are.
  const headings = splitSegments(parsed.body, { minChars: 0 }).map((s) => s.heading);
  assert.deepEqual(headings.filter((h) => h !== ''), ['第 1 轮 · 09:30', '第 2 轮 · 09:30']);

  assert.equal(draftImport(readSessionBytes(frameOf([{ id: 'empty' }]))), null, 'nothing said, nothing imported');
  assert.equal(draftImport(log)!.sourceHash, draft.sourceHash, 'stable hash');
});

test('long turns are trimmed per turn; the person keeps more room than the conclusion', async () => {
  await zstdReady();
  const w = new EventWriter(T0);
  const log = readSessionBytes(frameOf([{ id: 'long' }, ...simpleTurn(w, 1, '问'.repeat(5000), '答'.repeat(5000))]));
  const draft = draftImport(log)!;
  const user = /用户:\n> (问+…)/.exec(draft.body)![1]!;
  const answer = /结论:\n> (答+…)/.exec(draft.body)![1]!;
  assert.equal(user.length, 1500);
  assert.equal(answer.length, 800);
});

test('import is idempotent: skip unchanged, update changed in place, record every session', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const progress: [number, number][] = [];

  const logs = await logsOf(home, '/work/alpha');
  assert.equal(logs.length, 2);
  const preview = await planImport(db, logs);
  assert.deepEqual(
    preview.map((p) => p.status),
    ['new', 'new'],
  );

  const first = await importSessions({ db, ...writer }, logs, { workspace: 'ws-alpha', onProgress: (d, n) => progress.push([d, n]) });
  assert.deepEqual(first, { imported: 2, updated: 0, skipped: 0, empty: 0, failed: [] });
  assert.deepEqual(progress, [
    [1, 2],
    [2, 2],
  ]);
  assert.equal(writer.calls.length, 2);
  const rows = await listSessionImports(db, { workspace: 'ws-alpha' });
  assert.deepEqual(rows.map((r) => r.sessionId).sort(), [IDS.rich, IDS.sub].sort());
  assert.equal(rows.find((r) => r.sessionId === IDS.rich)!.turns, 2);

  const again = await importSessions({ db, ...writer }, await logsOf(home, '/work/alpha'), { workspace: 'ws-alpha' });
  assert.deepEqual(again, { imported: 0, updated: 0, skipped: 2, empty: 0, failed: [] });
  assert.equal(writer.calls.length, 2, 'nothing written on the second run');

  // The session goes on: a new frame with a third turn is appended.
  const rich = richSession(IDS.rich, '/work/alpha', T0);
  const w = new EventWriter(T0 + 3600_000);
  w.seq = 100;
  writeLog(home, 'alpha', IDS.rich, concat([...rich.frames, frameOf(simpleTurn(w, 3, '新问题', '新结论'))]));
  const changed = await importSessions({ db, ...writer }, await logsOf(home, '/work/alpha'), { workspace: 'ws-alpha' });
  assert.deepEqual(changed, { imported: 0, updated: 1, skipped: 1, empty: 0, failed: [] });
  const update = writer.calls.at(-1)!;
  assert.equal(update.op, 'update');
  assert.equal(update.path, writer.calls.find((c) => c.op === 'write' && c.draft.sessionId === IDS.rich)!.path, 'the same memory');
  assert.equal((update.draft.body.match(/^## /gm) ?? []).length, 3);
  assert.equal((await listSessionImports(db)).length, 2, 'no duplicate record');
  assert.equal((await listSessionImports(db)).find((r) => r.sessionId === IDS.rich)!.turns, 3);
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
  assert.equal(first.imported, 1);
  assert.deepEqual(first.failed, [{ sessionId: IDS.sub, error: 'disk full' }]);
  fail = false;
  const second = await importSessions(flaky, [...logs, ...logs], { workspace: 'w' });
  assert.deepEqual(second, { imported: 1, updated: 0, skipped: 1, empty: 0, failed: [] });
  assert.equal(writer.calls.filter((c) => c.draft.sessionId === IDS.sub).length, 1);
});

test('concurrent imports of one database do not write a session twice', async (t) => {
  const home = await makeHome(t);
  const db = await openDb(t);
  const writer = fakeWriter();
  const logs = await logsOf(home, '/work/alpha');
  const [a, b] = await Promise.all([importSessions({ db, ...writer }, logs, { workspace: 'w' }), importSessions({ db, ...writer }, logs, { workspace: 'w' })]);
  assert.equal(a.imported + b.imported, 2);
  assert.equal(a.skipped + b.skipped, 2);
  assert.equal(writer.calls.length, 2);
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
