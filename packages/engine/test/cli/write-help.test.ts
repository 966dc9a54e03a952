// What `engram write` and `--help` tell a user must name things that exist: a taken title points to
// the memory that holds it and to a command the CLI has; the usage line matches what the code needs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '../engine/helpers.ts';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));

function engram(args: string[], home: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const commandsOf = (usage: string) => new Set([...usage.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!));

test('a taken title names the memory that has it and a command the CLI has, never one it lacks', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const first = engram(['write', '--title', '备份策略', '--content', '每次迁移之前复制数据库文件到 backups 目录,保留最近五份。', '--tags', '备份', ...common, '--json'], dirs.root);
  assert.equal(first.code, 0, first.stderr);
  const { docId } = JSON.parse(first.stdout) as { docId: string };

  const again = engram(['write', '--title', '备份策略', '--content', '完全不同的另一段内容,讲的是周末去哪里吃饭。', '--tags', '聚餐', ...common], dirs.root);
  assert.equal(again.code, 1, again.stderr);
  assert.match(again.stderr, /title-exists/);
  assert.ok(again.stderr.includes(docId), `names the memory holding the title: ${again.stderr}`);
  assert.match(again.stderr, /^engram write: [\u4e00-\u9fff]/, 'Chinese first');
  const usage = engram(['--help'], dirs.root).stdout;
  const named = [...again.stderr.matchAll(/engram ([a-z][a-z-]*)/g)].map((m) => m[1]!).filter((c) => c !== 'write');
  assert.ok(named.length > 0, `points to a command: ${again.stderr}`);
  for (const c of named) assert.ok(commandsOf(usage).has(c), `"engram ${c}" is a command --help lists`);
  assert.doesNotMatch(again.stderr, /command: update/, 'the note-block protocol is not a CLI command');
});

test('--help shows --title as optional, and a write without it takes the title from the text', () => {
  const dirs = tempDirs();
  const usage = engram(['--help'], dirs.root).stdout;
  const writeLine = usage.split('\n').find((l) => /^\s+write\b/.test(l)) ?? '';
  assert.match(writeLine, /\[--title T\]/, writeLine);
  const r = engram(['write', '--content', '[09:00] 发布清单\n\n发布前检查版本号、变更记录与回滚脚本。', '--tags', '发布', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--json'], dirs.root);
  assert.equal(r.code, 0, r.stderr);
  const list = engram(['list', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--json'], dirs.root);
  assert.deepEqual((JSON.parse(list.stdout) as { title: string }[]).map((m) => m.title), ['发布清单']);
});

test('engram write --kind --goal: stored in the Meta line, listed, an alias folded, an unknown kind kept with a warning', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const usage = engram(['--help'], dirs.root).stdout;
  assert.match(usage.split('\n').find((l) => /^\s+write\b/.test(l)) ?? '', /\[--kind K\] \[--goal G\]/);
  const r = engram(['write', '--title', '发布回滚演练', '--content', '每次发布前在预发环境演练一次回滚脚本。', '--tags', '发布', '--kind', 'todo', '--goal', '失败时 5 分钟内回到上一版; 不丢数据', ...common, '--json'], dirs.root);
  assert.equal(r.code, 0, r.stderr);
  const { path, docId } = JSON.parse(r.stdout) as { path: string; docId: string };
  assert.match(readFileSync(join(dirs.diaryDir, path), 'utf8'), /\nMeta: kind=task; goal="失败时 5 分钟内回到上一版; 不丢数据"\n$/);
  const list = JSON.parse(engram(['list', ...common, '--json'], dirs.root).stdout) as { docId: string; kind: string; goal: string }[];
  assert.deepEqual(list.filter((m) => m.docId === docId).map((m) => [m.kind, m.goal]), [['task', '失败时 5 分钟内回到上一版; 不丢数据']]);
  const odd = engram(['write', '--title', '一个想法', '--content', '也许可以把整个倒排索引常驻在内存里。', '--tags', '索引', '--kind', 'idea', ...common], dirs.root);
  assert.equal(odd.code, 0, odd.stderr);
  assert.match(odd.stdout, /warning: 未知的 kind「idea」/);
});
