import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openEngine } from '../../src/engine.ts';
import { WorkspaceRegistry } from '../../src/workspace/registry.ts';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));

function engram(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    input: opts.input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...opts.env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('index, then recall --stdin --json answers one object per line in input order', () => {
  const dirs = tempDirs();
  const files = seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const idx = engram(['index', ...common, '--json'], { env: { HOME: dirs.root } });
  assert.equal(idx.code, 0, idx.stderr);
  const report = JSON.parse(idx.stdout) as { documents: number; chunks: number };
  assert.equal(report.documents, Object.keys(files).length);
  assert.ok(report.chunks >= report.documents);

  const queries = ['东京节点 443 端口', '好的,继续', '数据库备份保留几份', 'jieba 分词'];
  const r = engram(['recall', '--stdin', '--json', ...common], { input: `${queries.join('\n')}\n`, env: { HOME: dirs.root } });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { query: string; hits: { path: string; title: string; channels: unknown; matched: unknown[] }[]; gate: { removed: number; reasons: unknown[] }; timing: { totalMs: number } });
  assert.deepEqual(lines.map((l) => l.query), queries);
  assert.equal(lines[0]!.hits[0]!.path, '2026-10-20-tokyo-1a2b3c4d.txt', 'path is relative to the diary root');
  assert.deepEqual(lines[1]!.hits, [], 'chatter injects nothing');
  assert.equal(lines[2]!.hits[0]!.path, 'work/2026-10-23-backup.txt');
  for (const l of lines) {
    assert.equal(typeof l.timing.totalMs, 'number');
    assert.ok(Array.isArray(l.gate.reasons));
    for (const h of l.hits) assert.ok(h.channels && Array.isArray(h.matched));
  }
});

test('bad input: one clear line on stderr and a non-zero exit', () => {
  const dirs = tempDirs();
  const cases: { args: string[]; code: number; pattern: RegExp }[] = [
    { args: ['recall', 'x', '--no-such-flag'], code: 2, pattern: /no-such-flag/ },
    { args: ['recall', 'x', '--diary-dir', join(dirs.root, 'missing')], code: 2, pattern: /does not exist/ },
    { args: ['recall', '--k', 'zero', 'x'], code: 2, pattern: /--k/ },
    { args: ['frobnicate'], code: 2, pattern: /unknown command/ },
    // node's parser explains an option value starting with a dash over three lines.
    { args: ['list', '--offset', '-1'], code: 2, pattern: /--offset.*--offset=-/ },
    { args: ['edit', 'nope', '--target', 'a', '--replace', 'b', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir], code: 1, pattern: /no memory/ },
  ];
  for (const c of cases) {
    const r = engram(c.args, { env: { HOME: dirs.root } });
    assert.equal(r.code, c.code, `${c.args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, c.pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
  }
  // The messages the CLI words itself say it in Chinese first.
  for (const args of [['recall'], ['write', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir], ['edit'], ['forget'], ['frobnicate'], ['recall', '--k', 'zero', 'x'], ['recall', 'x', '--only', 'both'], ['recall', 'x', '--no-such-flag']]) {
    const r = engram(args, { env: { HOME: dirs.root } });
    assert.match(r.stderr, /[\u4e00-\u9fff].*\/ [A-Za-z-]/, `${args.join(' ')}: ${r.stderr}`);
  }
});

test('write, list and forget through the CLI, with env options', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir };
  const w = engram(['write', '--title', 'CLI 写入测试', '--content', '用命令行写入一条关于 zeta-7 的记忆。', '--tags', 'cli,zeta-7', '--json'], { env });
  assert.equal(w.code, 0, w.stderr);
  const { docId } = JSON.parse(w.stdout) as { docId: string };
  const list = JSON.parse(engram(['list', '--json'], { env }).stdout) as { docId: string; title: string }[];
  assert.deepEqual(list.map((m) => m.docId), [docId]);
  assert.equal(engram(['forget', docId], { env }).code, 0);
  assert.deepEqual(JSON.parse(engram(['list', '--json'], { env }).stdout), []);
  assert.equal((JSON.parse(engram(['list', '--archived', '--json'], { env }).stdout) as unknown[]).length, 1);
});

test('list shows one page of a large store and says how to see the rest; --json keeps the whole list', () => {
  const dirs = tempDirs();
  const notes = 75;
  for (let i = 0; i < notes; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    writeFileSync(join(dirs.diaryDir, `2026-${i < 28 ? '09' : i < 56 ? '10' : '11'}-${day}-n${i}.txt`), `[09:00] 笔记 ${i}\n\n> 第 ${i} 条。\n\n正文 ${i}。\n\nTag: 笔记\n`);
  }
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir };
  const whole = JSON.parse(engram(['list', '--json'], { env }).stdout) as { docId: string }[];
  assert.equal(whole.length, notes, '--json: every memory, as scripts read it');
  const ids = (stdout: string) => stdout.split('\n').filter((l) => /^[0-9a-f]{16}  /.test(l)).map((l) => l.slice(0, 16));

  const first = engram(['list'], { env });
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(ids(first.stdout), whole.slice(0, 50).map((m) => m.docId), 'the first 50, in the list order');
  assert.match(first.stdout, /1–50 of 75/);
  assert.match(first.stdout, /engram list --offset 50/, 'names the next page');
  assert.match(first.stdout, /--all/);

  const next = engram(['list', '--offset', '50', '--limit', '20'], { env });
  assert.deepEqual(ids(next.stdout), whole.slice(50, 70).map((m) => m.docId));
  assert.match(next.stdout, /51–70 of 75/);
  const last = engram(['list', '--offset', '70'], { env });
  assert.deepEqual(ids(last.stdout), whole.slice(70).map((m) => m.docId));
  assert.doesNotMatch(last.stdout, /--offset/, 'nothing after the last page');
  assert.deepEqual(ids(engram(['list', '--all'], { env }).stdout), whole.map((m) => m.docId));
  assert.deepEqual((JSON.parse(engram(['list', '--json', '--limit', '5', '--offset', '10'], { env }).stdout) as { docId: string }[]).map((m) => m.docId), whole.slice(10, 15).map((m) => m.docId));
  const bad = engram(['list', '--limit', 'many'], { env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--limit/);
});

test('write --stdin: UTF-16 with a BOM is read as text; bytes that are not UTF-8 are refused, nothing is written', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  const run = (input: Buffer) => spawnSync(process.execPath, [bin, 'write', '--stdin', '--title', `标准输入 ${input.length}`, ...common], { input, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
  const text = '数据库迁移前先备份,保留最近五份;超过五份删除最旧的一份。';
  const utf16 = run(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  assert.equal(utf16.status, 0, utf16.stderr);
  const files = () => readdirSync(dirs.diaryDir).filter((f) => f.endsWith('.txt'));
  assert.equal(files().length, 1);
  const written = readFileSync(join(dirs.diaryDir, files()[0]!), 'utf8');
  assert.ok(written.includes(text), written);
  assert.ok(!written.includes('\uFFFD') && !written.includes('\uFEFF'));
  // GB18030 bytes of the same text: as UTF-8 they would be U+FFFD, the words unrecoverable.
  const gbk = run(Buffer.from('ca fd be dd bf e2 c7 a8 d2 c6 c7 b0 cf c8 b1 b8 b7 dd', 'hex'));
  assert.notEqual(gbk.status, 0);
  assert.match(gbk.stderr, /UTF-8/);
  assert.match(gbk.stderr, /iconv/);
  assert.equal(files().length, 1, 'nothing written');
});

// engram serve took --config and --database-url as every command does, and dropped them: the console
// opened the default config and database, and a missing config file or an unreachable server went
// unsaid while the console was built. They now reach the console, and the check before the build says so.
test('serve hands --config and --database-url to the console: a missing config file or an unreachable server is said before any build', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--port', '0'];
  const missing = spawnSync(process.execPath, [bin, 'serve', ...common, '--config', join(dirs.root, 'no-such.json')], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root }, timeout: 30_000 });
  assert.notEqual(missing.status, 0);
  assert.match(missing.stderr, /config-missing/);
  assert.doesNotMatch(missing.stdout + missing.stderr, /next build|构建控制台/);
  const server = spawnSync(process.execPath, [bin, 'serve', ...common, '--database-url', 'http://127.0.0.1:9'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root }, timeout: 30_000 });
  assert.notEqual(server.status, 0);
  assert.match(server.stderr, /unreachable|无法连接/);
  assert.doesNotMatch(server.stdout + server.stderr, /next build|构建控制台/);
});

// The files are the truth: a memory a person wrote by hand was "not-found" to edit and forget until
// some other command synced the folder (both open without a sync, for speed).
test('edit and forget take a file written by hand, by its path, before anything synced it', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  assert.equal(engram(['write', '--title', '先有的一条', '--content', '先有的一条记忆,让索引存在。'], { env }).code, 0);
  const file = '2026-11-02-手工笔记.txt';
  writeFileSync(join(dirs.diaryDir, file), '[09:00] 手工笔记\n\n> 路由器\n\n家里路由器的管理地址是 192.168.1.1,密码在抽屉里。\n\nTag: 家里\n');
  const edit = engram(['edit', file, '--target', '家里路由器的管理地址是 192.168.1.1', '--replace', '家里路由器的管理地址是 192.168.50.1'], { env });
  assert.equal(edit.code, 0, edit.stderr);
  assert.match(readFileSync(join(dirs.diaryDir, file), 'utf8'), /192\.168\.50\.1/);
  const other = '2026-11-03-手工二.txt';
  writeFileSync(join(dirs.diaryDir, other), '[09:00] 手工二\n\n> 待归档\n\n这一条写完就归档。\n\nTag: 家里\n');
  const forget = engram(['forget', other], { env });
  assert.equal(forget.code, 0, forget.stderr);
  assert.ok(!readdirSync(dirs.diaryDir).includes(other), 'moved to the archive');
});

// A script that checks the model with `engram model status --verify` read success from a failed check.
test('model status --verify exits non-zero when the model does not verify', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_MODEL_CACHE: join(dirs.root, 'models') };
  const r = engram(['model', 'status', '--verify', '--data-dir', dirs.dataDir], { env });
  assert.notEqual(r.code, 0, r.stdout);
  assert.match(r.stdout, /verification failed/);
  assert.match(r.stderr, /校验/);
  const plain = engram(['model', 'status', '--data-dir', dirs.dataDir], { env });
  assert.equal(plain.code, 0, 'without --verify it only reports');
});

// The judge's endpoint from the environment alone left it off, and status said only "judge off".
test('status says why the judge is off when its endpoint is set but it is not turned on', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, ENGRAM_EMBEDDING_PROVIDER: 'none', ENGRAM_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', ENGRAM_JUDGE_MODEL: 'x', ENGRAM_JUDGE_KEY: 'k' };
  const r = engram(['status'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /judge off: .*judge\.enabled/);
});

test('engram mcp and engram model say a usage error as the other commands do: one line, Chinese first', () => {
  const dirs = tempDirs();
  for (const args of [['mcp', '--no-such-flag'], ['mcp', '--http', '--port', '99999'], ['model', 'status', '--no-such-flag'], ['model', 'install', '--runtime', 'maybe']]) {
    const r = engram(args, { env: { HOME: dirs.root, ENGRAM_MODEL_CACHE: join(dirs.root, 'models') } });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.match(r.stderr, /[\u4e00-\u9fff].*\/ [A-Za-z-]/, `${args.join(' ')}: ${r.stderr}`);
  }
});

// An unknown --workspace was taken quietly: recall and list answered with the global memories only,
// and a typo looked like a workspace with nothing in it. The same for engram mcp --workspace.
test('recall, list and mcp refuse a --workspace no workspace has: one line, Chinese first, naming the workspaces there are', async () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  const project = join(dirs.root, 'alpha-proj');
  mkdirSync(project);
  const engine = await openEngine({ env });
  let workspace: string;
  try {
    workspace = (await new WorkspaceRegistry(engine).resolve(project)).id;
    await engine.write({ content: '[09:00] 阿尔法项目的构建命令\n> 阿尔法项目用 make release 构建,产物在 out 目录。\n\nTag: 构建', meta: { workspace } });
    // An id only a memory carries (written on another machine): a workspace too.
    await engine.write({ content: '[09:10] 贝塔项目的构建命令\n> 贝塔项目用 cargo build 构建,产物在 target 目录。\n\nTag: 构建', meta: { workspace: 'ws-beta0002' } });
  } finally {
    await engine.closeBeforeExit();
  }

  const refused = (args: string[], extra: { input?: string } = {}) => {
    const r = engram(args, { env, ...extra });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.match(r.stderr, /[\u4e00-\u9fff].*\/ [A-Za-z-]/, `Chinese first: ${r.stderr}`);
    return r.stderr;
  };
  for (const args of [['recall', '构建命令', '--workspace', 'nosuch'], ['list', '--workspace', 'nosuch'], ['mcp', '--workspace', 'nosuch']]) {
    const said = refused(args, { input: '' });
    assert.match(said, /"nosuch"/);
    for (const known of ['global', workspace, 'alpha-proj', 'ws-beta0002']) assert.ok(said.includes(known), `names ${known}: ${said}`);
  }
  // A near miss or the workspace's name instead of its id: the one meant is named.
  assert.match(refused(['list', '--workspace', `${workspace.slice(0, -1)}x`]), new RegExp(`did you mean ${workspace}`));
  assert.match(refused(['recall', '构建命令', '--workspace', 'alpha-proj']), new RegExp(`did you mean ${workspace}`));

  // The workspaces there are still answer.
  for (const id of [workspace, 'ws-beta0002', 'global']) {
    const listed = engram(['list', '--workspace', id, '--json'], { env });
    assert.equal(listed.code, 0, `${id}: ${listed.stderr}`);
  }
  const mine = JSON.parse(engram(['list', '--workspace', workspace, '--json'], { env }).stdout) as { title: string }[];
  assert.deepEqual(mine.map((m) => m.title), ['阿尔法项目的构建命令']);
});

// Forgetting a memory twice said not-found: archiving moves its file, and its docId (the hash of its
// path) and the path it was forgotten by name nothing any more.
test('forget of a memory already archived says so and where it is, and exits 0 as the first forget did', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  const w = engram(['write', '--title', '旧的部署说明', '--folder', 'work', '--content', '旧的部署说明:先停服务,再覆盖二进制,最后重启。', '--tags', '部署', '--json'], { env });
  assert.equal(w.code, 0, w.stderr);
  const { docId, path } = JSON.parse(w.stdout) as { docId: string; path: string };
  const first = engram(['forget', docId, '--json'], { env });
  assert.equal(first.code, 0, first.stderr);
  const { to } = JSON.parse(first.stdout) as { to: string };
  assert.match(to, /^已整理\/work\//);

  for (const name of [docId, path]) {
    const again = engram(['forget', name], { env });
    assert.equal(again.code, 0, `${name}: ${again.stderr}`);
    assert.equal(again.stderr, '');
    assert.equal(again.stdout.trim().split('\n').length, 1, `one line: ${again.stdout}`);
    assert.match(again.stdout, /^已经归档.*旧的部署说明.* \/ already archived/, again.stdout);
    assert.ok(again.stdout.includes(to), `names where it is: ${again.stdout}`);
  }
  const json = engram(['forget', docId, '--json'], { env });
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout), { docId: JSON.parse(engram(['list', '--archived', '--json'], { env }).stdout)[0].docId, from: path, to, alreadyArchived: true });
  assert.deepEqual(readdirSync(join(dirs.diaryDir, '已整理/work')), [to.split('/').pop()], 'nothing moved again');
});

// A bad value from the environment was reported under its config key (`recall.tokenizer: …`), and the
// person looked for it in a config file that did not have it.
test('a bad environment value is named by its variable, with the setting it sets; a file\'s by its key', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir };
  for (const [name, value, key] of [
    ['ENGRAM_TOKENIZER', 'foo', 'recall.tokenizer'],
    ['ENGRAM_EMBEDDING_DIMENSIONS', 'many', 'embedding.dimensions'],
  ] as const) {
    const r = engram(['status'], { env: { ...env, [name]: value } });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
    assert.ok(r.stderr.includes(`: ${name} (${key}): `), r.stderr);
  }
  const file = join(dirs.root, 'engram.json');
  writeFileSync(file, JSON.stringify({ recall: { kBase: 'five' } }));
  const fromFile = engram(['status', '--config', file], { env: { ...env, ENGRAM_TOKENIZER: 'jieba' } });
  assert.equal(fromFile.code, 1, fromFile.stderr);
  assert.match(fromFile.stderr, /\): recall\.kBase: /);
  assert.doesNotMatch(fromFile.stderr, /ENGRAM_/);
});
