// A session imported, then continued in DSH and imported again: the memory is updated in place only
// while it is still what the import wrote. A memory the person edited or locked keeps every word;
// the continued session becomes a memory of its own, which later imports update.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { keepsEveryLine, PastSessions } from '../../src/sessions/past-sessions.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';
import { concat, EventWriter, frameOf, simpleTurn, T0, writeLog, zstdReady } from './fixtures.ts';

const ID = 'f0f0f0f0-7777-4aaa-8bbb-000000000007';
const TURNS: [string, string][] = [
  ['PostgreSQL 连接池怎么配置比较好？', '连接池大小设为 CPU 核数的两倍,max_connections 相应调大。'],
  ['连接池超时时间设多少？', '空闲超时 30 秒,获取连接超时 5 秒。'],
  ['连接泄漏怎么排查？', '打开 leakDetectionThreshold,看日志里未归还连接的堆栈。'],
];

/** The session's log with its first `n` turns, as the host writes it (one frame per append). */
function writeSession(home: string, n: number): void {
  const w = new EventWriter(T0);
  const frames = [frameOf([{ id: ID, cwd: '/work/pg', createdAt: T0 }])];
  TURNS.slice(0, n).forEach(([q, a], i) => frames.push(frameOf(simpleTurn(w, i + 1, q, a))));
  writeLog(home, 'pg', ID, concat(frames));
}

async function setUp(t: { after(fn: () => unknown): void }) {
  await zstdReady();
  const home = mkdtempSync(join(tmpdir(), 'engram-dsh-home-'));
  const dirs = tempDirs();
  t.after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(dirs.root, { recursive: true, force: true });
  });
  const engine = await openTestEngine(dirs, {}, { sessions: { dshHome: home } });
  t.after(() => engine.close());
  const past = new PastSessions(engine);
  const files = () => readdirSync(dirs.diaryDir).filter((f) => f.endsWith('.txt')).sort();
  const text = (f: string) => readFileSync(join(dirs.diaryDir, f), 'utf8');
  return { home, dirs, engine, past, files, text, importAll: () => past.import([ID], { workspace: 'global' }) };
}

test('a continued session updates its memory in place while the memory is as the import wrote it', async (t) => {
  const s = await setUp(t);
  writeSession(s.home, 1);
  await s.importAll();
  writeSession(s.home, 2);
  const report = await s.importAll();
  assert.equal(report.updated, 1);
  assert.equal(s.files().length, 1, 'no second memory');
  assert.match(s.text(s.files()[0]!), /空闲超时 30 秒/);
});

test('a memory the person edited keeps their words; the continued session becomes a memory of its own, updated by later imports', async (t) => {
  const s = await setUp(t);
  writeSession(s.home, 1);
  await s.importAll();
  const [file] = s.files();
  const mine = '（我的补充：生产环境实测 40 最稳,别超过 60）';
  await s.engine.edit(file!, '连接池大小设为 CPU 核数的两倍', `连接池大小设为 CPU 核数的两倍${mine}`);
  const edited = s.text(file!);
  writeSession(s.home, 2);
  const report = await s.importAll();
  assert.deepEqual([report.imported, report.updated], [1, 0], 'reported as a new memory');
  assert.equal(s.text(file!), edited, 'the edited memory is untouched');
  const added = s.files().filter((f) => f !== file);
  assert.equal(added.length, 1, 'the continued session is a memory of its own');
  assert.match(s.text(added[0]!), /（续）/);
  assert.match(s.text(added[0]!), /空闲超时 30 秒/);
  writeSession(s.home, 3);
  await s.importAll();
  assert.equal(s.files().length, 2, 'the next import updates the continuation, not a third memory');
  assert.match(s.text(added[0]!), /leakDetectionThreshold/);
  assert.equal(s.text(file!), edited);
});

test('a memory the person locked is never rewritten by an import', async (t) => {
  const s = await setUp(t);
  writeSession(s.home, 1);
  await s.importAll();
  const [file] = s.files();
  const path = join(s.dirs.diaryDir, file!);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/origin=import$/m, 'origin=import; locked'));
  await s.engine.index({ full: false });
  const locked = s.text(file!);
  writeSession(s.home, 2);
  await s.importAll();
  assert.equal(s.text(file!), locked);
  assert.equal(s.files().length, 2);
});

test('keepsEveryLine: a rewrite may add lines (turns, reasoning) and renumber the head, never drop or change a line on disk', () => {
  const one = 'DSH 会话 x,共 1 轮。\n\n## 第 1 轮\n\n用户:\n> 问';
  const two = 'DSH 会话 x,共 2 轮。\n\n## 第 1 轮\n\n用户:\n> 问\n\n## 第 2 轮';
  assert.equal(keepsEveryLine(one, two), true);
  assert.equal(keepsEveryLine(one.replace(/\n/g, '\r\n'), two), true);
  assert.equal(keepsEveryLine(one, 'DSH 会话 x,共 1 轮。\n\n## 第 1 轮\n\n用户:\n> 问\n\n思考:\n> 想'), true, 'the reasoning added');
  assert.equal(keepsEveryLine(`${one}(我加的)`, two), false, 'a line changed');
  assert.equal(keepsEveryLine(`${one}\n\n我的笔记`, two), false, 'a line added');
});
