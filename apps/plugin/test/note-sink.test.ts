// Semantic write blocks in assistant replies, through the host: written once however often the
// reply is delivered, the same writer as the tools, failures told to the model on its next step.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOST_VARIANTS } from '@engram/dsh-sim';
import { isOwn, loadPlugin } from './helpers.ts';

const createBlock = (title: string, body: string) => `好的,已记下。

<<<DailyNoteStart>>>
command: create
title: ${title}
folder: 工作
tags: 测试, 幂等

[10:30] ${title}

> ${body.slice(0, 20)}

${body}

Tag: 测试, 幂等
<<<DailyNoteEnd>>>`;

const diaryFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.txt') || f.endsWith('.md'));

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`a semantic block delivered twice (reply event + turn-stopping, then a redelivery) writes once (${variant})`, async (t) => {
    const { host, engine, corpus } = await loadPlugin(t, { host: hostOptions });
    const before = diaryFiles(corpus.diaryDir).length;
    const session = host.createSession();
    const turn = await session.userTurn('记一下今天的发布复盘', [{ text: createBlock('发布流程复盘', '今天的发布因为缺少回滚脚本延误了半小时,下次先写回滚脚本再发布。') }]);
    await host.settle();
    const reply = turn.events.find((e) => e.type === 'assistant/message')!;
    session.redeliver(reply.seq);
    await host.settle();

    const files = diaryFiles(corpus.diaryDir);
    assert.equal(files.length, before + 1, 'exactly one new diary file');
    const created = files.find((f) => f.includes('发布流程复盘'))!;
    assert.ok(created.startsWith('工作'), 'the folder header is honoured');
    assert.match(readFileSync(join(corpus.diaryDir, created), 'utf8'), /先写回滚脚本再发布/);
    // The second delivery did not try again (it would have failed with title-exists).
    assert.equal(host.logs.filter((l) => /note block .*created .*发布流程复盘/.test(l.message)).length, 1);
    assert.equal(host.logs.filter((l) => /title-exists/.test(l.message)).length, 0);
    // Both later deliveries did arrive, and were recognised as already handled.
    assert.ok(host.logs.some((l) => /note blocks via turn-stopping: 1 already handled/.test(l.message)));
    assert.ok(host.logs.some((l) => /note blocks via assistant\/message: 1 already handled/.test(l.message)));
    // Indexed at once: the new diary is recallable in the same session.
    assert.equal((await engine.recall('回滚脚本')).hits[0]?.title, '发布流程复盘');
    const next = await session.userTurn('好', [{ text: 'ok' }]);
    assert.equal(next.requests[0]!.messages.filter((m) => isOwn(m, 'notice')).length, 0, 'no failure notice');
    host.assertClean();
  });
}

test('create refuses an existing title and tells the model on its next step', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const before = diaryFiles(corpus.diaryDir).length;
  const session = host.createSession();
  await session.userTurn('记一下', [{ text: createBlock('周报写作流程', '另一段关于周报的内容,不应该覆盖原来那篇。') }]);
  await host.settle();
  assert.equal(diaryFiles(corpus.diaryDir).length, before);
  assert.match(readFileSync(join(corpus.diaryDir, '2026-03-01-周报写作流程.txt'), 'utf8'), /周报每周五下午写/, 'the original is untouched');
  const next = await session.userTurn('继续', [{ text: 'ok' }]);
  const notices = next.requests[0]!.messages.filter((m) => isOwn(m, 'notice'));
  assert.equal(notices.length, 1);
  assert.match(notices[0]!.content, /周报写作流程/);
  assert.match(notices[0]!.content, /command: update/);
  // Told once.
  const after = await session.userTurn('再继续', [{ text: 'ok' }]);
  assert.equal(after.requests[0]!.messages.filter((m) => isOwn(m, 'notice')).length, 1);
  await host.settle();
  host.assertClean();
});

test('update locates the passage across diaries and replaces it with the anchored replace', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const session = host.createSession();
  const reply = `已更新。

<<<DailyNoteStart>>>
command: update
target: 服务器每天凌晨三点做增量备份,每周日做全量备份,保留三十天
replace: 服务器每天凌晨两点做增量备份,每周六做全量备份,保留三十天
<<<DailyNoteEnd>>>`;
  await session.userTurn('备份时间改了', [{ text: reply }]);
  await host.settle();
  const text = readFileSync(join(corpus.diaryDir, '2026-03-10-服务器备份策略.txt'), 'utf8');
  assert.match(text, /凌晨两点做增量备份,每周六做全量备份/);
  assert.match(text, /> 服务器每天凌晨三点/, 'only the quoted passage changed (the summary line stays)');
  assert.equal((await engine.recall('凌晨两点 增量备份')).hits[0]?.title, '服务器备份策略', 're-indexed');
  host.assertClean();
});

test('an update whose target occurs twice in one diary is refused, not guessed', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const file = join(corpus.diaryDir, '2026-03-10-服务器备份策略.txt');
  const before = readFileSync(file, 'utf8');
  const session = host.createSession();
  // The summary line repeats the body's opening words: this passage is in the file twice.
  await session.userTurn('改一下', [{ text: '<<<DailyNoteStart>>>\ncommand: update\ntarget: 服务器每天凌晨三点做增量备份,每周日做全量备份\nreplace: 改掉\n<<<DailyNoteEnd>>>' }]);
  await host.settle();
  assert.equal(readFileSync(file, 'utf8'), before);
  const next = await session.userTurn('继续', [{ text: 'ok' }]);
  assert.match(next.requests[0]!.messages.find((m) => isOwn(m, 'notice'))!.content, /target-ambiguous/);
});

test('an update whose target is missing, and a malformed block, are reported, and no file changes', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const snapshot = () => diaryFiles(corpus.diaryDir).map((f) => readFileSync(join(corpus.diaryDir, f), 'utf8')).join('\u0000');
  const before = snapshot();
  const session = host.createSession();
  const reply = `<<<DailyNoteStart>>>
command: update
target: 这段文字在任何一篇日记里都不存在,所以无法定位
replace: 新内容
<<<DailyNoteEnd>>>

<<<DailyNoteStart>>>
command: create
<<<DailyNoteEnd>>>`;
  await session.userTurn('改一下', [{ text: reply }]);
  await host.settle();
  assert.equal(snapshot(), before);
  const next = await session.userTurn('继续', [{ text: 'ok' }]);
  const notice = next.requests[0]!.messages.find((m) => isOwn(m, 'notice'))!;
  assert.match(notice.content, /target-not-found/);
  assert.match(notice.content, /格式有误/);
  host.assertClean();
});

test('blocks shown inside a code fence are examples, not writes', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const before = diaryFiles(corpus.diaryDir).length;
  const session = host.createSession();
  await session.userTurn('语义块怎么写?', [{ text: `格式如下:\n\n\`\`\`\n${createBlock('示例标题', '示例正文,示例正文。')}\n\`\`\`` }]);
  await host.settle();
  assert.equal(diaryFiles(corpus.diaryDir).length, before);
});

test('a block the engine failed to save is told to the model once, with why; not only logged', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const before = diaryFiles(corpus.diaryDir).length;
  // The database failing under the writer (as a corrupt one does): the scoped path lists the
  // workspace's memories first, the unscoped one applies the blocks directly.
  const corrupt = async () => {
    throw new Error('Failed query: select "id" from "documents"', { cause: Object.assign(new Error('SQLITE_CORRUPT: database disk image is malformed'), { code: 'SQLITE_CORRUPT' }) });
  };
  const patched = engine as unknown as Record<'list' | 'applyNoteBlocks', unknown>;
  const saved = { list: patched.list, applyNoteBlocks: patched.applyNoteBlocks };
  patched.list = corrupt;
  patched.applyNoteBlocks = corrupt;
  const session = host.createSession();
  await session.userTurn('记一下今天的发布复盘', [{ text: createBlock('发布流程复盘', '今天的发布因为缺少回滚脚本延误了半小时,下次先写回滚脚本再发布。') }]);
  await host.settle();
  Object.assign(patched, saved);
  assert.equal(diaryFiles(corpus.diaryDir).length, before, 'nothing was written');
  const next = await session.userTurn('继续', [{ text: 'ok' }]);
  const notices = next.requests[0]!.messages.filter((m) => isOwn(m, 'notice'));
  assert.equal(notices.length, 1, 'told, once for both deliveries');
  assert.match(notices[0]!.content, /没有保存/);
  assert.match(notices[0]!.content, /SQLITE_CORRUPT/);
  assert.match(notices[0]!.content, /engram_write/, 'says how to save it another way');
  const after = await session.userTurn('再继续', [{ text: 'ok' }]);
  assert.equal(after.requests[0]!.messages.filter((m) => isOwn(m, 'notice')).length, 1, 'not told again');
  await host.settle();
});
