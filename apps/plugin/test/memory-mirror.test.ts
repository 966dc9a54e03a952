// Memory.md through the simulator (seed 001-56): a session in a workspace folder writes memories
// (a tool call, a note block in a reply); once its turn stops, the folder's Memory.md mirrors them.
// A Memory.md the person wrote is left as it was, and the log says why.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MIRROR_MARKER } from '@engram/engine';
import type { MemoryMirrors } from '../src/host/workspace/mirror.ts';
import { loadPlugin } from './helpers.ts';

const NOTE = `好的,已记下。

<<<DailyNoteStart>>>
command: create
title: 接口返回约定

[10:30] 接口返回约定

> 接口统一返回 JSON,错误码放在 code 字段

接口统一返回 JSON,错误码放在 code 字段,HTTP 状态码只用 200 / 4xx / 5xx。

Tag: 接口
<<<DailyNoteEnd>>>`;

async function withFolder(t: Parameters<typeof loadPlugin>[0]) {
  let mirrors: MemoryMirrors | undefined;
  const loaded = await loadPlugin(t, { deps: { onMirrors: (m) => (mirrors = m) } });
  const folder = join(loaded.corpus.root, 'shop');
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{"name":"shop"}');
  return { ...loaded, folder, mirrors: mirrors! };
}

test('a tool write and a note block in a reply reach the workspace\'s Memory.md after the turn', async (t) => {
  const { host, folder, mirrors } = await withFolder(t);
  const session = host.createSession({ cwd: folder });
  const write = { content: '[09:00] 发布规矩\n\n> 发布前先在预发环境跑冒烟测试\n\n发布前先在预发环境跑冒烟测试,通过再上线。\n\nTag: 发布' };
  await session.userTurn('记一下发布规矩', [{ toolCalls: [{ name: 'engram_write', arguments: write }] }, { text: '记下了' }]);
  await mirrors.idle();
  const file = join(folder, 'Memory.md');
  const first = readFileSync(file, 'utf8');
  assert.ok(first.startsWith(MIRROR_MARKER), 'marked as generated');
  assert.match(first, /发布规矩：发布前先在预发环境跑冒烟测试/);
  assert.ok(!first.includes('周报写作流程'), 'the global diaries are not this workspace\'s');

  await session.userTurn('接口怎么返回?', [{ text: NOTE }]);
  await mirrors.idle();
  const second = readFileSync(file, 'utf8');
  assert.match(second, /接口返回约定：接口统一返回 JSON/, 'the note block of that very turn is in');
  assert.match(second, /发布规矩/);
  await host.settle();
});

test('a person\'s own Memory.md is never overwritten; the log says why', async (t) => {
  const { host, folder, mirrors } = await withFolder(t);
  const file = join(folder, 'Memory.md');
  writeFileSync(file, '# 我的备忘\n');
  const session = host.createSession({ cwd: folder });
  await session.userTurn('记一下', [{ text: NOTE }]);
  await mirrors.idle();
  assert.equal(readFileSync(file, 'utf8'), '# 我的备忘\n');
  assert.ok(host.logs.some((l) => /Memory\.md .*not written \(foreign\)/.test(l.message)), JSON.stringify(host.logs.slice(-5)));
  await host.settle();
});

test('a session without a folder writes no Memory.md anywhere', async (t) => {
  const { host, corpus, mirrors } = await withFolder(t);
  const session = host.createSession({});
  await session.userTurn('记一下', [{ text: NOTE }]);
  await mirrors.idle();
  assert.equal(existsSync(join(corpus.root, 'Memory.md')), false);
  assert.equal(existsSync(join(corpus.diaryDir, 'Memory.md')), false);
  await host.settle();
});
