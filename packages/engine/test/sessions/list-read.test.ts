// Listing a workspace's sessions from a DSH home, and the text session_read returns.
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { findSessionFiles, listSessions, loadSession, resolveDshHome } from '../../src/sessions/list.ts';
import { readSessionBytes } from '../../src/sessions/log.ts';
import { formatSessionList, formatSessionRead, sessionReadPage } from '../../src/sessions/read.ts';
import { concat, EventWriter, frameOf, logPath, simpleTurn, T0, writeLog, zstdReady } from './fixtures.ts';
import { DAY, IDS, makeHome } from './home.ts';

test('resolveDshHome: config value, then $DSH_HOME, then ~/.dsh', () => {
  assert.equal(resolveDshHome('/opt/dsh', { DSH_HOME: '/env/dsh' }, '/home/u'), '/opt/dsh');
  assert.equal(resolveDshHome('~/custom', {}, '/home/u'), join('/home/u', 'custom'));
  assert.equal(resolveDshHome('  ', { DSH_HOME: '/env/dsh' }, '/home/u'), resolve('/env/dsh'));
  assert.equal(resolveDshHome('', {}, '/home/u'), join('/home/u', '.dsh'));
  assert.equal(resolveDshHome(undefined, { DSH_HOME: '' }, '/home/u'), join('/home/u', '.dsh'));
});

test('listing by cwd: the workspace and its subfolders, newest first; not a neighbour, a subagent or a cwd-less session', async (t) => {
  const home = await makeHome(t);
  const alpha = await listSessions(home, { cwd: '/work/alpha' });
  assert.deepEqual(
    alpha.map((s) => s.id),
    [IDS.sub, IDS.rich],
  );
  const rich = alpha.find((s) => s.id === IDS.rich)!;
  assert.equal(rich.title, '东京节点端口与周报');
  assert.equal(rich.turns, 2);
  assert.equal(rich.project, 'alpha');
  assert.equal(rich.damaged, false);
  assert.ok(rich.bytes > 0);
  assert.equal(rich.startedAt, T0);

  const beta = await listSessions(home, { cwd: '/work/beta' });
  assert.deepEqual(
    beta.map((s) => [s.id, s.turns, s.damaged]),
    [[IDS.beta, 2, true]],
  );

  const both = await listSessions(home, { cwd: '/work/beta', workspacePaths: ['/work/alpha'] });
  assert.deepEqual(
    both.map((s) => s.id),
    [IDS.beta, IDS.sub, IDS.rich],
  );

  const everything = await listSessions(home);
  assert.equal(everything.length, 5, 'no filter: all but the subagent');
  assert.equal((await listSessions(home, { includeSubagents: true })).length, 6);
  assert.deepEqual(await listSessions(join(home, 'missing')), []);
});

test('a changed log is re-read by the listing (no stale cache)', async (t) => {
  const home = await makeHome(t);
  assert.equal((await listSessions(home, { cwd: '/work/alpha/sub' }))[0]!.turns, 1);
  const w = new EventWriter(T0 + DAY);
  const bytes = concat([frameOf([{ id: IDS.sub, cwd: '/work/alpha/sub' }]), frameOf(simpleTurn(w, 1, '一', '1')), frameOf(simpleTurn(w, 2, '二', '2'))]);
  writeLog(home, 'alpha', IDS.sub, bytes);
  const future = new Date(Date.now() + 60_000);
  utimesSync(logPath(home, 'alpha', IDS.sub), future, future);
  assert.equal((await listSessions(home, { cwd: '/work/alpha/sub' }))[0]!.turns, 2);
});

test('findSessionFiles: exact id, unique prefix, ambiguous prefix, unknown', async (t) => {
  const home = await makeHome(t);
  assert.equal((await findSessionFiles(home, IDS.rich)).length, 1);
  assert.equal((await findSessionFiles(home, 'B0B0')).length, 1, 'case-insensitive');
  assert.equal((await findSessionFiles(home, 'a1b2')).length, 2);
  assert.equal((await findSessionFiles(home, 'zzzz')).length, 0);
  assert.equal((await findSessionFiles(home, '  ')).length, 0);
});

test('the log names the host writes: session.jsonl.zstd (current), session.jsonl (compression off), session.v4.jsonl.zstd (the contract)', async (t) => {
  const home = await makeHome(t);
  // The host's header line (HeaderLine in packages/session/session-persistence-jsonl/src/format.ts).
  const header = (id: string, createdAt: number) => ({ type: 'session', version: 4, id, createdAt, cwd: '/work/gamma' });
  const zid = 'f1f1f1f1-0000-4000-8000-00000000000a';
  const pid = 'f2f2f2f2-0000-4000-8000-00000000000b';
  const wz = new EventWriter(T0 + 10 * DAY);
  const wp = new EventWriter(T0 + 11 * DAY);
  mkdirSync(join(home, 'sessions', 'gamma', zid), { recursive: true });
  writeFileSync(join(home, 'sessions', 'gamma', zid, 'session.jsonl.zstd'), concat([frameOf([header(zid, T0 + 10 * DAY)]), frameOf(simpleTurn(wz, 1, '压缩日志里的问题', '压缩日志里的回答'))]));
  mkdirSync(join(home, 'sessions', 'gamma', pid), { recursive: true });
  const plain = [header(pid, T0 + 11 * DAY), ...simpleTurn(wp, 1, '明文日志里的问题', '明文日志里的回答')].map((r) => JSON.stringify(r)).join('\n');
  writeFileSync(join(home, 'sessions', 'gamma', pid, 'session.jsonl'), `${plain}\n{"broken`);
  const gamma = await listSessions(home, { cwd: '/work/gamma' });
  assert.deepEqual(
    gamma.map((s) => [s.id, s.turns, s.startedAt]),
    [
      [pid, 1, T0 + 11 * DAY],
      [zid, 1, T0 + 10 * DAY],
    ],
  );
  const plainLog = await loadSession((await findSessionFiles(home, 'f2f2'))[0]!.file);
  assert.equal(plainLog.turns[0]!.user, '明文日志里的问题');
  assert.deepEqual(plainLog.damage, { badFrames: 0, badLines: 1, skippedBytes: 0 }, 'the cut last line is counted');
  assert.equal((await findSessionFiles(home, IDS.rich)).length, 1, 'the contract’s name is still read');
});

test('session_read text: turns without thinking or injected fragments, paged and capped', async (t) => {
  const home = await makeHome(t);
  const [ref] = await findSessionFiles(home, 'a1b2c3');
  const log = await loadSession(ref!.file);
  const text = formatSessionRead(log, { maxChars: 8000 });
  assert.match(text, /东京节点 443 端口被占用了怎么办/);
  assert.match(text, /结论:东京节点改用 8443 端口/);
  assert.match(text, /read_file\(path=etc\/sing-box\.json, limit=200\)/);
  assert.match(text, /第 2 轮/);
  for (const leaked of ['INJECTED', 'PLUGIN-ONLY', 'SNAPSHOT', 'THOUGHT', 'INLINE-THINK', 'DIARY-BLOCK']) assert.ok(!text.includes(leaked), leaked);

  const second = sessionReadPage(log, { turns: [2], maxChars: 8000 });
  assert.equal(second.from, 2);
  assert.equal(second.to, 2);
  assert.equal(second.nextFrom, null);
  assert.doesNotMatch(second.text, /东京节点 443 端口被占用/);

  const beyond = sessionReadPage(log, { turns: [9], maxChars: 8000 });
  assert.match(beyond.text, /只有 2 轮/);
});

test('session_read paging: the budget cuts between turns and says where to go on', async () => {
  await zstdReady();
  const w = new EventWriter(T0);
  const rows: unknown[] = [{ id: 'long-session', cwd: '/p' }];
  for (let i = 1; i <= 30; i++) rows.push(...simpleTurn(w, i, `第${i}个问题 ${'细节'.repeat(40)}`, `第${i}个回答 ${'解释'.repeat(60)}`));
  const bytes = frameOf(rows);
  {
    const log = readSessionBytes(bytes);
    const page = sessionReadPage(log, { maxChars: 2000 });
    assert.ok(page.text.length <= 2000, `${page.text.length} chars`);
    assert.equal(page.from, 1);
    assert.ok(page.to >= 2 && page.to < 30);
    assert.equal(page.nextFrom, page.to + 1);
    assert.match(page.text, new RegExp(`session_read\\(\\{ id: "long-ses", from: ${page.nextFrom} \\}\\)`));
    const next = sessionReadPage(log, { turns: [page.nextFrom!], maxChars: 2000 });
    assert.equal(next.from, page.to + 1, 'the next page starts where the last stopped');

    const huge = readSessionBytes(frameOf([{ id: 'h' }, ...simpleTurn(new EventWriter(T0), 1, '长'.repeat(5000), '答')]));
    const cut = sessionReadPage(huge, { maxChars: 1000 });
    assert.ok(cut.cut);
    assert.ok(cut.text.length <= 1000, `${cut.text.length}`);
    assert.equal(cut.to, 1);
  }
});

test('listing text: ids, dates, titles, turns; the current session is marked; capped', async (t) => {
  const home = await makeHome(t);
  const items = await listSessions(home, { cwd: '/work/alpha' });
  const text = formatSessionList(items, { maxChars: 4000, currentId: IDS.sub, scope: '/work/alpha' });
  assert.match(text, /共 2 个/);
  assert.match(text, /a1b2c3d4 · 2026-03-09 09:30 · 东京节点端口与周报 · 2 轮/);
  assert.match(text, /a1b2ffff .*\(当前会话\)/);
  assert.match(formatSessionList([], { maxChars: 4000 }), /没有找到/);
  const many = Array.from({ length: 200 }, (_, i) => ({ ...items[0]!, id: `id${String(i).padStart(6, '0')}`, startedAt: T0 - i * DAY }));
  const capped = formatSessionList(many, { maxChars: 1500 });
  assert.ok(capped.length <= 1500);
  assert.match(capped, /还有 \d+ 个较早的会话未列出/);
});
