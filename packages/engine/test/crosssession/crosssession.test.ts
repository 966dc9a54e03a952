// Cross-session memory against a real engine on temp folders: brief (what other sessions wrote,
// cursor advanced), the wall (public / addressed / prefix), the private notebook beside the
// compaction books (injection, precedence, backups, path safety).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { CompactionFiles } from '../../src/compaction/files.ts';
import { CrossSession } from '../../src/crosssession/service.ts';
import { formatProvenance } from '../../src/crosssession/provenance.ts';
import { PRECEDENCE_TEXT, MINOR_ELSEWHERE_TEXT } from '../../src/crosssession/notebook-render.ts';
import { NOTEBOOK_BACKUP_DIR, NotebookFiles } from '../../src/crosssession/notebook.ts';
import { isInside } from '../../src/diary/fsio.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

async function setup(t: { after(fn: () => unknown): void }) {
  const dirs = tempDirs();
  const engine = await openTestEngine(dirs);
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return { dirs, engine, cross: new CrossSession({ engine }) };
}

const HOUR = 3_600_000;

test('brief: another session’s memories appear once, grouped by session; the cursor advances; workspaces stay apart', async (t) => {
  const { engine, cross } = await setup(t);
  const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
  const write = (title: string, content: string, workspace: string, sessionId: string | null) =>
    engine.write({ title, content, tags: ['测试'], meta: { workspace, sessionId, origin: sessionId ? 'agent' : '' } });

  await write('部署脚本的回滚步骤', '部署失败时先执行 rollback.sh,再清理 releases 目录里最新的一份。', 'ws-a', A);
  await write('数据库连接池参数', '连接池 maxConnections 设为 32,idleTimeout 设为 30 秒。', 'ws-a', A);
  await write('提交信息的约定', '所有项目的提交信息都用中文写清楚动机。', 'global', A);
  await write('B 自己的记录', 'B 会话自己写的记忆不应出现在 B 的同步里。', 'ws-a', B);
  await write('手写的老日记', '没有会话出处的记忆不属于任何会话的动静。', 'ws-a', null);

  const first = await cross.brief(B, 'ws-a', { now: new Date() });
  assert.equal(first.firstSync, true);
  assert.equal(first.cursorAdvanced, true);
  assert.equal(first.groups.length, 1, 'only A: B’s own and the session-less memory are left out');
  const [group] = first.groups;
  assert.equal(group!.sessionId, A);
  assert.equal(group!.total, 3);
  assert.equal(group!.items.length, 2, 'at most two per session');
  assert.deepEqual(group!.items.map((m) => m.title), ['提交信息的约定', '数据库连接池参数'], 'newest first');
  assert.ok(first.text.includes(`s:${A.slice(0, 8)}`), 'the short session id is shown');
  assert.match(first.text, /首次同步:回看最近 24 小时/);
  assert.match(first.text, /〔global〕/);

  const second = await cross.brief(B, 'ws-a', { now: new Date() });
  assert.equal(second.firstSync, false);
  assert.equal(second.groups.length, 0, 'nothing new since the cursor');
  assert.match(second.text, /距上次同步/);

  await write('前端构建缓存', 'webpack 的 filesystem cache 放在 node_modules/.cache 下。', 'ws-a', A);
  const third = await cross.brief(B, 'ws-a', { now: new Date() });
  assert.deepEqual(third.groups.map((g) => g.items.map((m) => m.title)), [['前端构建缓存']]);

  // C works in another workspace: it sees A's global memory, never A's workspace memories.
  const other = await cross.brief(C, 'ws-c', { now: new Date() });
  assert.deepEqual(other.groups.flatMap((g) => g.items.map((m) => m.title)), ['提交信息的约定']);
  assert.equal(other.memories, 1);

  // A first brief looks back only the configured hours.
  const late = await cross.brief(randomUUID(), 'ws-a', { now: new Date(Date.now() + 25 * HOUR) });
  assert.equal(late.groups.length, 0);
  assert.equal(late.lookbackHours, 24);

  const listed = await engine.list({ workspace: 'ws-a' });
  const fromA = listed.find((m) => m.title === '前端构建缓存')!;
  assert.equal(formatProvenance(fromA), `〔s:${A.slice(0, 8)} · 会话写入〕`);
  assert.equal(formatProvenance(listed.find((m) => m.title === '手写的老日记')!), '', 'no session recorded → none shown, none invented');
});

test('brief can be switched off in the settings', async (t) => {
  const { engine, cross } = await setup(t);
  await engine.saveSettings({ crossSession: { brief: false } });
  await assert.rejects(cross.brief(randomUUID(), 'ws-a'), (e: Error & { code?: string }) => e.code === 'disabled');
});

test('wall: public, addressed by session prefix or workspace; each reader sees only what is for it', async (t) => {
  const { engine, cross } = await setup(t);
  const [A, B, C] = [randomUUID(), randomUUID(), randomUUID()];
  await engine.write({ title: '工作区 ws-a 的记忆', content: '让 ws-a 成为一个已知的工作区。', meta: { workspace: 'ws-a', sessionId: A } });
  let clock = Date.parse('2026-11-01T10:00:00Z');
  const post = (to: string | undefined, text: string, from = A) => cross.wallPost({ fromSession: from, fromWorkspace: 'ws-a', to, text, now: new Date((clock += 60_000)) });

  const pub = await post(undefined, '大家注意:周五停机维护。');
  assert.equal(pub.recipient, '');
  const toB = await post(B.slice(0, 6).toUpperCase(), 'B:你那个脚本建议加个超时。');
  assert.equal(toB.recipient, `s:${B.slice(0, 6)}`, 'a bare prefix, case-insensitive');
  const toC = await post('ws:ws-c', '给 ws-c 工作区的所有会话:接口改名了。');
  assert.equal(toC.recipient, 'ws:ws-c');
  const toWs = await post('ws-a', '给 ws-a 的会话:记得跑迁移。');
  assert.equal(toWs.recipient, 'ws:ws-a', 'a bare value naming a known workspace is that workspace');
  const toFull = await post(`s:${C}`, 'C:完整 id 也可以。');
  assert.equal(toFull.recipient, `s:${C}`);

  for (const [to, text, code] of [
    [undefined, '   ', 'bad-input'],
    [undefined, '字'.repeat(2001), 'too-long'],
    ['abc12', '前缀太短', 'bad-input'],
    ['s:abc', '前缀太短', 'bad-input'],
    ['has space', '收件人里有空格', 'bad-input'],
  ] as const) {
    await assert.rejects(post(to, text), (e: Error & { code?: string }) => e.code === code, `${String(to)} / ${text.slice(0, 10)}`);
  }
  assert.ok(await post(undefined, '字'.repeat(2000)), 'exactly 2000 characters are fine');

  const forB = await cross.wallRead({ sessionId: B, workspace: 'ws-a', k: 10 });
  assert.deepEqual(new Set(forB.map((m) => m.id)), new Set([pub.id, toB.id, toWs.id, forB[0]!.id]));
  assert.equal(forB[0]!.text.length, 2000, 'newest first');
  assert.ok(forB.find((m) => m.id === toB.id)!.toMe);
  assert.ok(forB.find((m) => m.id === toWs.id)!.toMe, 'addressed to its workspace');
  assert.ok(!forB.find((m) => m.id === pub.id)!.toMe, 'public is not "for you"');

  const forC = await cross.wallRead({ sessionId: C, workspace: 'ws-c', k: 10 });
  assert.ok(forC.some((m) => m.id === toC.id && m.toMe));
  assert.ok(forC.some((m) => m.id === toFull.id && m.toMe));
  assert.ok(!forC.some((m) => m.id === toB.id || m.id === toWs.id), 'another session’s or workspace’s mail is not shown');

  const forA = await cross.wallRead({ sessionId: A, workspace: 'ws-a', k: 50 });
  assert.equal(forA.length, 6, 'the writer sees what it wrote');
  assert.ok(forA.every((m) => m.mine));
  assert.equal((await cross.wallRead({ sessionId: A, workspace: 'ws-a', k: 2 })).length, 2);

  // The brief carries the latest three, marked when they are for the reader.
  const brief = await cross.brief(B, 'ws-a', { now: new Date() });
  assert.equal(brief.wall.length, 3);
  assert.match(brief.text, /\[给你\] s:[0-9a-f]{8} → 工作区 ws-a/);
});

test('notebook: nothing injected while empty; rules and minor rules under a precedence statement; notes never', async (t) => {
  const { engine, cross } = await setup(t);
  const scope = { workspace: '/work/project', sessionId: randomUUID() };
  assert.equal(cross.notebookInjection(scope), '');

  await cross.notebookWrite(scope, 'notes', '私下的计划:周五前悄悄把重构做完。');
  assert.equal(cross.notebookInjection(scope), '', 'notes are never injected');
  assert.match((await cross.notebookRead(scope, 'notes')).text, /悄悄把重构/);

  await cross.notebookWrite(scope, 'rules', '回答一律先给结论,再给理由。');
  const onlyRules = cross.notebookInjection(scope);
  assert.ok(onlyRules.includes(MINOR_ELSEWHERE_TEXT), 'by default the minor rules come after a compaction, not in this section');
  assert.ok(onlyRules.includes('## 本会话规则(最高优先)\n回答一律先给结论,再给理由。\n</engram-notebook>'), onlyRules);
  assert.doesNotMatch(onlyRules, /## 次要规则/);
  assert.equal(cross.notebookInjection(scope), onlyRules, 'byte-identical while the books do not change');

  // The compaction channel's minor-rules book, written the way compaction writes it.
  const compaction = new CompactionFiles(engine.config.dataDir);
  await compaction.writeRules(scope, [
    { text: '提交前必须跑 lint。', hits: 1, firstSeen: '2026-11-01', lastSeen: '2026-11-01', lastCompaction: 'c1' },
    { text: '以后都用 pnpm 装依赖。', hits: 3, firstSeen: '2026-11-01', lastSeen: '2026-11-01', lastCompaction: 'c2' },
  ]);
  assert.equal(cross.notebookInjection(scope), onlyRules, 'with the compaction channel showing them, a new minor book leaves the section (and the system prompt) unchanged');
  await engine.saveSettings({ compaction: { rules: { inject: false } } });
  const both = cross.notebookInjection(scope);
  assert.ok(both.includes(PRECEDENCE_TEXT));
  assert.ok(both.indexOf('## 本会话规则') < both.indexOf('## 次要规则'), 'the session’s rules come first');
  assert.ok(both.includes('## 次要规则(自动归纳,冲突时让位)\n- 以后都用 pnpm 装依赖。(×3)\n- 提交前必须跑 lint。\n</engram-notebook>'), 'most-hit first');
  assert.equal((await cross.notebookRead(scope, 'minor')).entries!.length, 2);

  // Beside the compaction books, in the same per-session folder.
  const folder = dirname(compaction.rulesPath(scope));
  assert.deepEqual(readdirSync(folder).sort(), ['minor-rules.md', 'notes.md', 'session-rules.md']);

  // Each book is cut at maxChars, visibly.
  await cross.notebookWrite(scope, 'rules', '长'.repeat(300));
  const cut = cross.notebookInjection(scope, 50);
  assert.match(cut, /…〔已截断:本节共 \d+ 字,只注入了前 50 字/);
  assert.ok(!cut.includes('长'.repeat(51)));

  await engine.saveSettings({ crossSession: { notebook: false } });
  assert.equal(cross.notebookInjection(scope), '', 'off in the settings → nothing injected');
  await assert.rejects(cross.notebookRead(scope, 'rules'), (e: Error & { code?: string }) => e.code === 'disabled');
});

test('notebook: replace keeps every old version; append keeps the old text', async (t) => {
  const { engine, cross } = await setup(t);
  const scope = { workspace: '/work/project', sessionId: randomUUID() };
  await cross.notebookWrite(scope, 'rules', '第一版规矩。');
  const appended = await cross.notebookWrite(scope, 'rules', '追加的一条。', 'append');
  assert.equal(appended.backup, null);
  assert.equal((await cross.notebookRead(scope, 'rules')).text, '第一版规矩。\n\n追加的一条。\n');

  const r1 = await cross.notebookWrite(scope, 'rules', '第二版规矩。', 'replace');
  const r2 = await cross.notebookWrite(scope, 'rules', '第三版规矩。', 'replace');
  assert.ok(r1.backup && r2.backup && r1.backup !== r2.backup, 'a new backup each time, never overwritten');
  const data = engine.config.dataDir;
  assert.equal(readFileSync(join(data, r1.backup!), 'utf8'), '第一版规矩。\n\n追加的一条。\n');
  assert.equal(readFileSync(join(data, r2.backup!), 'utf8'), '第二版规矩。\n');
  assert.ok(r1.backup!.includes(`/${NOTEBOOK_BACKUP_DIR}/`));
  assert.equal((await cross.notebookRead(scope, 'rules')).text, '第三版规矩。\n');
  const same = await cross.notebookWrite(scope, 'rules', '第三版规矩。', 'replace');
  assert.equal(same.changed, false);
  assert.equal(same.backup, null);

  await assert.rejects(cross.notebookWrite(scope, 'minor' as never, '手写次要规则'), (e: Error & { code?: string }) => e.code === 'bad-input');
  await assert.rejects(cross.notebookWrite(scope, 'rules', '  '), (e: Error & { code?: string }) => e.code === 'bad-input');
});

test('notebook: session ids that could name another folder are refused; odd cwds stay inside the data dir', async (t) => {
  const { engine, cross, dirs } = await setup(t);
  for (const sessionId of ['../../etc', '..', 'a/b', 'a\\b', '../x', 'ok\u0000id', '']) {
    const scope = { workspace: '/w', sessionId };
    await assert.rejects(cross.notebookWrite(scope, 'rules', '越界'), (e: Error & { code?: string }) => e.code === 'path-escape', JSON.stringify(sessionId));
    await assert.rejects(cross.notebookRead(scope, 'notes'), (e: Error & { code?: string }) => e.code === 'path-escape');
    assert.throws(() => cross.notebookInjection(scope), (e: Error & { code?: string }) => e.code === 'path-escape');
  }
  assert.ok(!existsSync(join(dirs.root, 'etc')));
  const odd = { workspace: '../../../../tmp/evil', sessionId: 'session-1' };
  await cross.notebookWrite(odd, 'notes', '留在数据目录里。');
  const path = cross.notebook.pathOf(odd, 'notes');
  assert.ok(isInside(resolve(engine.config.dataDir), path), path);
});

test('host-shaped session ids (session-…): labels show the distinctive part, and a wall message addressed by it arrives', async (t) => {
  // Every DSH host session id starts with `session-` (real host): the first 8 characters alone would
  // label every memory 〔s:session-〕 and address every session at once.
  const { cross } = await setup(t);
  const [A, B] = [`session-${randomUUID()}`, `session-${randomUUID()}`];
  assert.equal(formatProvenance({ sessionId: B, origin: 'agent' }), `〔s:${B.slice(8, 16)} · 会话写入〕`);
  const short = B.slice(8, 16);
  const msg = await cross.wallPost({ fromSession: A, fromWorkspace: 'ws-a', to: `s:${short}`, text: '给 B:用短 id 也能收到。', now: new Date() });
  const forB = await cross.wallRead({ sessionId: B, workspace: 'ws-a', k: 10 });
  assert.ok(forB.some((m) => m.id === msg.id && m.toMe), 'the short id from the label reaches B');
  const forA = await cross.wallRead({ sessionId: `session-${randomUUID()}`, workspace: 'ws-b', k: 10 });
  assert.ok(!forA.some((m) => m.id === msg.id), 'and nobody else');
  const brief = await cross.brief(B, 'ws-a', { now: new Date() });
  assert.doesNotMatch(brief.text, /s:session-/);
});

test('notebook: a book the person re-saved as UTF-16 keeps its encoding and every word through an append; one that is not text is refused untouched', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-notebook-enc-'));
  const nb = new NotebookFiles(dataDir);
  const scope = { workspace: 'w1', sessionId: 's1' };
  await nb.write(scope, 'notes', '第一条笔记', 'append', new Date());
  const path = nb.pathOf(scope, 'notes');
  const mine = '我自己写的笔记：客户的电话是 138-0000-0000。';
  writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${mine}\r\n`, 'utf16le')]));
  await nb.write(scope, 'notes', '代理追加的一行', 'append', new Date());
  const after = readFileSync(path);
  assert.deepEqual([...after.subarray(0, 2)], [0xff, 0xfe], 'still UTF-16 with its BOM');
  const text = new TextDecoder('utf-16le').decode(after.subarray(2));
  assert.ok(text.includes(mine) && text.includes('代理追加的一行'), text);
  const gbk = Buffer.from('ced2d7d4bcbad0b4b5c4b1cabcc7', 'hex');
  writeFileSync(path, gbk);
  await assert.rejects(nb.write(scope, 'notes', '代理追加的一行', 'append', new Date()));
  assert.deepEqual(readFileSync(path), gbk, 'untouched');
});

test('notebook: a book re-saved as UTF-16 (BOM, CRLF) is read as its words, injected as its words, and a replace keeps it readable in its encoding', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-notebook-read-'));
  const nb = new NotebookFiles(dataDir);
  const scope = { workspace: 'w1', sessionId: 's1' };
  await nb.write(scope, 'notes', '第一条笔记', 'append', new Date());
  await nb.write(scope, 'rules', '先跑测试', 'append', new Date());
  const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const notes = nb.pathOf(scope, 'notes');
  writeFileSync(notes, utf16('客户的电话是 138-0000-0000。\r\n第二行\r\n'));
  assert.equal(await nb.read(scope, 'notes'), '客户的电话是 138-0000-0000。\n第二行\n');
  assert.equal(nb.readSync(scope, 'notes'), '客户的电话是 138-0000-0000。\n第二行\n');
  writeFileSync(nb.pathOf(scope, 'rules'), utf16('回答一律用中文\r\n'));
  assert.match(nb.injectionSync(scope, 4000), /回答一律用中文/);

  await nb.write(scope, 'notes', '整理后的笔记\n只剩这一行', 'replace', new Date());
  const after = readFileSync(notes);
  assert.deepEqual([...after.subarray(0, 2)], [0xff, 0xfe], 'a replace keeps the BOM, so the book stays UTF-16 and readable');
  assert.equal(new TextDecoder('utf-16le').decode(after.subarray(2)), '整理后的笔记\r\n只剩这一行\r\n', 'in its own line endings');
  assert.equal(await nb.read(scope, 'notes'), '整理后的笔记\n只剩这一行\n');
  await nb.write(scope, 'notes', '再追加一行', 'append', new Date());
  assert.equal(new TextDecoder('utf-16le').decode(readFileSync(notes).subarray(2)), '整理后的笔记\r\n只剩这一行\r\n\r\n再追加一行\r\n', 'an append too');
});
