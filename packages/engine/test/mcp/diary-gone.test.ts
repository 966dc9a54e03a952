// The MCP server's tools with the diary folder gone under it (deleted, its drive unmounted): recall is
// paused, so recall and search find nothing, and an empty answer alone reads to the model as "there
// is no such memory": they say the folder is missing and memories cannot be searched until it is
// back. search without q lists the index, whose files are not on disk right now: it still lists them
// (nothing is lost) under a line that says so. Neither names the folder's path.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { clientFailure, failureLine } from '../../src/errors.ts';
import { test } from 'node:test';
import { mcpTools } from '../../src/mcp/tools.ts';
import { seededEngine } from '../engine/helpers.ts';

const SEARCH_NOTICE = /^日记文件夹不见了.*无法检索记忆.* \/ The diary folder is missing.*cannot be searched until it is back/;
const LISTING_NOTICE = /^日记文件夹不见了.*不在磁盘上.* \/ The diary folder is missing.*not on disk right now/;
const NOTICE = /日记文件夹不见了|diary folder is missing/;

test('MCP recall and search say the diary folder is missing instead of "nothing relevant", and the index listing says its memories are not on disk', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  const tools = mcpTools({ engine, workspace: null, env: {} });
  const run = async (name: string, args: Record<string, unknown>) => {
    const tool = tools.find((x) => x.name === name);
    assert.ok(tool, name);
    return tool.run(args);
  };
  const calls: [name: string, args: Record<string, unknown>][] = [
    ['recall', { message: '川菜馆 聚餐 订位' }],
    ['search', { q: '川菜馆 聚餐 订位' }],
    ['search', { q: '聚餐 arch:1' }],
    ['search', {}],
  ];
  for (const [name, args] of calls) assert.doesNotMatch((await run(name, args)).text, NOTICE, `${name} ${JSON.stringify(args)} while the folder is there`);
  assert.match((await run('recall', { message: '川菜馆 聚餐 订位' })).text, /周末聚餐地点/, 'recall works while the folder is there');

  rmSync(dirs.diaryDir, { recursive: true });

  for (const [name, args] of calls.slice(0, 3)) {
    const answer = await run(name, args);
    assert.match(answer.text, SEARCH_NOTICE, `${name} ${JSON.stringify(args)}: ${answer.text}`);
    assert.ok(!answer.text.includes(dirs.root), `no path for the model: ${answer.text}`);
  }
  const recalled = await run('recall', { message: '川菜馆 聚餐 订位' });
  assert.equal((recalled.structured as { gate: { silencedBy?: { rule: string } } }).gate.silencedBy?.rule, 'diary-missing', 'a program reads the reason');
  const searched = await run('search', { q: '川菜馆 聚餐 订位' });
  assert.equal(searched.structured?.diaryMissing, true, 'and search says so to a program too');

  const listing = await run('search', {});
  const [first, ...rest] = listing.text.split('\n');
  assert.match(first!, LISTING_NOTICE, listing.text);
  assert.ok(!listing.text.includes(dirs.root), listing.text);
  assert.match(rest.join('\n'), /周末聚餐地点/, 'the index is still listed: nothing is lost');
  assert.equal(listing.structured?.diaryMissing, true);
});

// A write while the folder is gone is refused as that — nothing was written, write again once it is
// back — not "create it" (for an unmounted drive, the notes would land under the mount point), in
// fixed words without a path, as the model reads every refusal (failureLine).
test('MCP write while the diary folder is gone: refused as the folder gone, for each kind of write, and nothing is created', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  const write = mcpTools({ engine, workspace: null, env: {} }).find((x) => x.name === 'write');
  assert.ok(write);
  rmSync(dirs.diaryDir, { recursive: true });
  const calls: Record<string, unknown>[] = [
    { content: '[11:00] 新的发布规范\n\n> 发布前先写回滚脚本\n\n发布前先写回滚脚本,再通知值班同事。\n\nTag: 发布, 回滚' },
    { id: '2026-10-24-dinner.txt', target: '上次去的川菜馆在地铁站旁边,水煮鱼很好吃', content: '上次去的川菜馆在地铁站旁边,酸菜鱼很好吃' },
    { id: '2026-10-24-dinner.txt', forget: true },
  ];
  for (const args of calls) {
    const line = await write.run(args).then(
      () => assert.fail(`${JSON.stringify(args)} succeeded`),
      (e: unknown) => failureLine(clientFailure(e)),
    );
    assert.match(line, /^\[diary-missing\] 日记文件夹不见了.*没有写入.* \/ The diary folder is missing.*nothing was written.*do not create the folder/s, line);
    assert.ok(!line.includes(dirs.root), `no path for the model: ${line}`);
  }
  assert.equal(existsSync(dirs.diaryDir), false, 'the folder was not created');
});

// read of a memory the index still lists, while the folder is gone: the folder is missing and the
// memory can be read once it is back, in fixed words — not "[not-found] root directory does not
// exist: <path>", read by the model as a memory gone.
test('MCP read while the diary folder is gone: the folder is missing, the memory can be read once it is back, no path', async (t) => {
  const { dirs, engine } = await seededEngine(t);
  const read = mcpTools({ engine, workspace: null, env: {} }).find((x) => x.name === 'read');
  assert.ok(read);
  const id = (await engine.resolve('2026-10-24-dinner.txt'))!.id;
  rmSync(dirs.diaryDir, { recursive: true });
  for (const args of [{ id }, { id, q: '川菜馆' }, { id, seg: [0] }]) {
    const line = await read.run(args).then(
      () => assert.fail(`${JSON.stringify(args)} succeeded`),
      (e: unknown) => failureLine(clientFailure(e)),
    );
    assert.match(line, /^\[diary-missing\] 日记文件夹不见了.*这篇记忆.*无法读取.* \/ The diary folder is missing.*cannot be read until it is back/s, line);
    assert.ok(!line.includes(dirs.root), `no path for the model: ${line}`);
  }
});
