// The compiled CLI is what a user runs (bin/engram.js → dist/cli/main.cjs, built by `prepare`).
// These tests build it the way `npm install` does and run the artifact as a separate process.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { seedCorpus, tempDirs } from '../engine/helpers.ts';
import { ensureCompiledCli } from './compiled-cli.ts';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = join(engineDir, '../..');
const bin = join(engineDir, 'bin/engram.js');
const version = (JSON.parse(readFileSync(join(engineDir, 'package.json'), 'utf8')) as { version: string }).version;
const SOURCE_NOTE = /running the TypeScript source through tsx/;

function run(binPath: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

before(ensureCompiledCli);

test('compiled engram: --version, index, status and recall run without tsx', () => {
  const v = run(bin, ['--version']);
  assert.equal(v.code, 0, v.stderr);
  assert.equal(v.stdout.trim(), version);
  assert.doesNotMatch(v.stderr, SOURCE_NOTE);

  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root };
  const idx = run(bin, ['index', ...common, '--json'], env);
  assert.equal(idx.code, 0, idx.stderr);
  assert.doesNotMatch(idx.stderr, SOURCE_NOTE);
  const status = run(bin, ['status', ...common, '--json'], env);
  assert.equal(status.code, 0, status.stderr);
  assert.equal(status.stderr, '');
  const s = JSON.parse(status.stdout) as { documents: number; tokenizer: { active: string } };
  assert.equal(s.documents, 5);
  assert.equal(s.tokenizer.active, 'jieba');
  const recall = run(bin, ['recall', '东京节点 443 端口', ...common, '--json'], env);
  assert.equal(recall.code, 0, recall.stderr);
  assert.equal(recall.stderr, '');
  const r = JSON.parse(recall.stdout) as { hits: { path: string }[] };
  assert.equal(r.hits[0]?.path, '2026-10-20-tokyo-1a2b3c4d.txt');
});

test('compiled --version loads neither the database client nor jieba; status loads the database', () => {
  const probe = (command: string) => {
    const script = `
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const { main } = require(${JSON.stringify(join(engineDir, 'dist/cli/main.cjs'))});
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = () => true;
      await main(${JSON.stringify(command.split(' '))});
      process.stdout.write = write;
      console.log(JSON.stringify(Object.keys(require.cache).filter((f) => !f.endsWith('main.cjs'))));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root } });
    return JSON.parse(out.trim().split('\n').pop()!) as string[];
  };
  const dirs = tempDirs();
  const loaded = probe('--version');
  assert.equal(loaded.some((f) => f.includes('libsql')), false, loaded.join('\n'));
  assert.equal(loaded.some((f) => f.includes('@node-rs/jieba')), false);
  const statusLoaded = probe(`status --diary-dir ${dirs.diaryDir} --data-dir ${dirs.dataDir} --json`);
  assert.ok(statusLoaded.some((f) => f.includes('libsql')), 'status opens the database (the probe can see loaded modules)');
  assert.equal(statusLoaded.some((f) => /node_modules\/ws\//.test(f)), false, 'an embedded database never loads the WebSocket client');
});

test('compiled engram keeps a code cache per command; a damaged one is refused, the command runs as without it, and it is written again', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root };
  assert.equal(run(bin, ['index', ...common], env).code, 0);
  const main = statSync(join(engineDir, 'dist/cli/main.cjs'));
  const cache = join(engineDir, `dist/cli/cache/list.${main.size}-${Math.round(main.mtimeMs)}.v8`);
  rmSync(cache, { force: true });
  const first = run(bin, ['list', ...common], env);
  assert.equal(first.code, 0, first.stderr);
  assert.ok(readFileSync(cache).length > 0, 'the first run writes the cache');
  writeFileSync(cache, 'not a code cache');
  const damaged = run(bin, ['list', ...common], env);
  assert.equal(damaged.code, 0, damaged.stderr);
  assert.equal(damaged.stderr, '');
  assert.equal(damaged.stdout, first.stdout);
  assert.notEqual(readFileSync(cache, 'utf8'), 'not a code cache', 'a refused cache is written again');
});

test('bin rebuilds a stale build, and runs the source through tsx with a note when it cannot', () => {
  // A copy of the package (bin, dist and the build script; sources linked) so the shared build is never touched.
  const root = mkdtempSync(join(tmpdir(), 'engram-bin-'));
  const copy = join(root, 'packages/engine');
  mkdirSync(join(root, 'packages/db'), { recursive: true });
  mkdirSync(copy, { recursive: true });
  // Not the code caches: other tests' commands write them (a temporary file, then a rename) while this
  // copies, and a file renamed between the listing and its copy failed the copy (ENOENT).
  const notACache = (src: string) => !/[\\/]dist[\\/]cli[\\/]cache([\\/]|$)|[\\/]dist[\\/]cli-\d+([\\/]|$)/.test(src);
  for (const dir of ['bin', 'dist', 'scripts']) cpSync(join(engineDir, dir), join(copy, dir), { recursive: true, preserveTimestamps: true, filter: notACache });
  cpSync(join(engineDir, 'package.json'), join(copy, 'package.json'), { preserveTimestamps: true });
  symlinkSync(join(engineDir, 'src'), join(copy, 'src'));
  symlinkSync(join(repoRoot, 'packages/db/src'), join(root, 'packages/db/src'));
  cpSync(join(repoRoot, 'packages/db/package.json'), join(root, 'packages/db/package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  symlinkSync(join(repoRoot, 'drizzle'), join(root, 'drizzle'));
  const copyBin = join(copy, 'bin/engram.js');
  const buildFile = join(copy, 'dist/cli/build.json');
  const readBuild = () => JSON.parse(readFileSync(buildFile, 'utf8')) as { builtAt: string; sources: { file: string; mtimeMs: number; sha1: string }[] };

  const fresh = run(copyBin, ['--version']);
  assert.equal(fresh.stdout.trim(), version);
  assert.doesNotMatch(fresh.stderr, SOURCE_NOTE, 'an up-to-date copy runs compiled');

  const build = readBuild();
  build.sources[0]!.mtimeMs -= 1000;
  writeFileSync(buildFile, JSON.stringify(build));
  const touched = run(copyBin, ['--version']);
  assert.equal(touched.stderr, '', 'a new mtime with the same bytes is not a change');
  assert.equal(readBuild().builtAt, build.builtAt, 'and is not rebuilt');

  build.sources[0]!.sha1 = '0'.repeat(40);
  writeFileSync(buildFile, JSON.stringify(build));
  const rebuilt = run(copyBin, ['--version']);
  assert.equal(rebuilt.code, 0, rebuilt.stderr);
  assert.equal(rebuilt.stdout.trim(), version);
  assert.equal(rebuilt.stderr, '', 'a stale build is rebuilt, silently');
  assert.notEqual(readBuild().builtAt, build.builtAt);

  // No build script (an installed copy) and a stale build: the source, with a note.
  rmSync(join(copy, 'scripts'), { recursive: true });
  writeFileSync(buildFile, JSON.stringify(build));
  const stale = run(copyBin, ['--version']);
  assert.equal(stale.code, 0, stale.stderr);
  assert.equal(stale.stdout.trim(), version);
  assert.match(stale.stderr, /out of date/);
  assert.match(stale.stderr, SOURCE_NOTE);

  rmSync(join(copy, 'dist'), { recursive: true });
  const missing = run(copyBin, ['--version']);
  assert.equal(missing.stdout.trim(), version);
  assert.match(missing.stderr, /compiled CLI is missing/);
  assert.match(missing.stderr, SOURCE_NOTE);
  rmSync(root, { recursive: true, force: true });
});

/** Runs the compiled CLI with its stdout on a real pipe whose reading end is already closed (`engram status | true`). */
function runIntoClosedPipe(args: string[], env: Record<string, string>): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stderr }));
  });
}

test('compiled engram status into a closed pipe (engram status | head) ends quietly, without an EPIPE crash', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root };
  assert.equal(run(bin, ['index', ...common], env).code, 0);
  for (const args of [['status', ...common], ['list', ...common], ['--help']]) {
    const r = await runIntoClosedPipe(args, env);
    assert.equal(r.stderr, '', `${args[0]}: nothing on stderr`);
    assert.equal(r.code, 0, `${args[0]}: exit 0`);
  }
});

test('compiled engram refuses a --workspace there is no workspace of, in one line naming the ones there are', () => {
  const dirs = tempDirs();
  const r = run(bin, ['list', '--workspace', 'nosuch', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir], { HOME: dirs.root });
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, SOURCE_NOTE);
  assert.match(r.stderr, /^engram list: 没有 id 为「nosuch」的工作区.* \/ no workspace with id "nosuch"; workspaces: global\n$/);
});

test('compiled engram forget of a memory already archived says where it is and exits 0', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  const w = run(bin, ['write', '--title', '归档两次', '--content', '这一条记忆会被归档两次,第二次应当说明它已经归档。', '--tags', '归档', '--json', ...common], env);
  assert.equal(w.code, 0, w.stderr);
  const { docId } = JSON.parse(w.stdout) as { docId: string };
  const first = run(bin, ['forget', docId, '--json', ...common], env);
  assert.equal(first.code, 0, first.stderr);
  const { to } = JSON.parse(first.stdout) as { to: string };
  const again = run(bin, ['forget', docId, ...common], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr, '');
  assert.equal(again.stdout, `已经归档过了：「归档两次」在日记文件夹的 ${to} / already archived: "归档两次" is at ${to} in the diary folder\n`);
});

test('compiled engram names a bad environment value by its variable and the setting it sets', () => {
  const dirs = tempDirs();
  const r = run(bin, ['status', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir], { HOME: dirs.root, ENGRAM_TOKENIZER: 'foo' });
  assert.equal(r.code, 1, r.stderr);
  assert.doesNotMatch(r.stderr, SOURCE_NOTE);
  assert.match(r.stderr, /^engram status: invalid configuration \(options \+ env\): ENGRAM_TOKENIZER \(recall\.tokenizer\): .*\[config-invalid\]\n$/);
});

// The four cases below were fixed with tests in cli.test.ts and config.test.ts that run the source, or
// bin/engram.js without asserting what it ran: bin runs the TypeScript source, with only a note on
// stderr, whenever it cannot run the build. Each asserts here what the user sees from the compiled
// CLI itself (no note), the code esbuild made of those sources, which is what ships.

test('compiled engram: a usage error of engram, engram mcp and engram model is one line, Chinese first, naming the option', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_MODEL_CACHE: join(dirs.root, 'models') };
  const cases: { args: string[]; command: string; help: string; option: string }[] = [
    { args: ['recall', 'x', '--no-such-flag'], command: 'recall', help: 'engram recall --help', option: '--no-such-flag' },
    { args: ['recall', '--k'], command: 'recall', help: 'engram recall --help', option: '--k' },
    { args: ['mcp', '--no-such-flag'], command: 'mcp', help: 'engram mcp --help', option: '--no-such-flag' },
    { args: ['mcp', '--port'], command: 'mcp', help: 'engram mcp --help', option: '--port' },
    { args: ['model', 'status', '--no-such-flag'], command: 'model', help: 'engram model --help', option: '--no-such-flag' },
    { args: ['model', 'status', '--data-dir'], command: 'model', help: 'engram model --help', option: '--data-dir' },
  ];
  for (const c of cases) {
    const r = run(bin, c.args, env);
    const what = `${c.args.join(' ')}: ${r.stderr}`;
    assert.equal(r.code, 2, what);
    assert.equal(r.stdout, '', what);
    // One line, so the source note (a line of its own) is ruled out too: this ran the build.
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${what}`);
    assert.ok(r.stderr.startsWith(`engram ${c.command}: 参数有误：`), what);
    assert.ok(r.stderr.includes(`（${c.help} 列出全部选项）/ `), what);
    const chinese = r.stderr.slice(0, r.stderr.indexOf('（'));
    assert.ok(chinese.includes(c.option), `the Chinese names the option: ${what}`);
    const english = r.stderr.slice(r.stderr.indexOf(' / ') + 3);
    assert.ok(english.includes(`'${c.option}`), `the English names the option: ${what}`);
    assert.doesNotMatch(english, /To specify/, `without node's advice about positionals: ${what}`);
  }
});

// `--help` after a command printed the general help, which names none of model's own options, while
// model's usage errors send the user to `engram model --help` (test/cli/command-help.test.ts: every command).
test('compiled engram model --help, where model\'s usage error sends the user, lists --verify', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_MODEL_CACHE: join(dirs.root, 'models') };
  const error = run(bin, ['model', 'status', '--verify=yes'], env);
  assert.equal(error.code, 2, error.stderr);
  assert.ok(error.stderr.startsWith('engram model: 参数有误：--verify 不带值（engram model --help 列出全部选项）/ '), error.stderr);
  for (const flag of ['--help', '-h']) {
    const help = run(bin, ['model', flag], env);
    assert.equal(help.code, 0, help.stderr);
    assert.equal(help.stderr, '', 'the build ran (no source note)');
    assert.match(help.stdout, /^engram model — /);
    assert.match(help.stdout, /^ {2}--verify +status：[^\n]*\/ status: /m, help.stdout);
  }
});

test('compiled engram: a config file key that misspells a setting is refused with the setting it likely means', () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const env = { HOME: dirs.root, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  const config = join(dirs.root, 'engram.json');
  writeFileSync(config, JSON.stringify({ recall: { kbase: 3 } }));
  const typo = run(bin, ['recall', '东京节点 443 端口', ...common, '--config', config], env);
  assert.equal(typo.code, 1, typo.stderr);
  assert.equal(typo.stdout, '', 'nothing was recalled with the default kBase');
  assert.doesNotMatch(typo.stderr, SOURCE_NOTE);
  assert.ok(typo.stderr.includes(`配置文件 ${config}：recall.kbase 不是设置项，是不是 recall.kBase？`), typo.stderr);
  assert.match(typo.stderr, /recall\.kbase is not a setting — did you mean recall\.kBase\? \[config-invalid\]$/m);
  // The same file spelt right runs: the refusal is the spelling's.
  writeFileSync(config, JSON.stringify({ recall: { kBase: 3 } }));
  const right = run(bin, ['recall', '东京节点 443 端口', ...common, '--config', config, '--json'], env);
  assert.equal(right.code, 0, right.stderr);
  assert.equal(right.stderr, '');
});

test('compiled engram model status --verify exits 1 when the model cache holds no model, or a damaged one', () => {
  const dirs = tempDirs();
  const cache = join(dirs.root, 'models');
  const env = { HOME: dirs.root, ENGRAM_MODEL_CACHE: cache };
  const verify = () => run(bin, ['model', 'status', '--verify', '--data-dir', dirs.dataDir], env);
  mkdirSync(cache, { recursive: true });
  const empty = verify();
  assert.equal(empty.code, 1, `an empty cache: ${empty.stdout}${empty.stderr}`);
  assert.match(empty.stdout, /verification failed: .*config\.json is missing/);
  assert.doesNotMatch(empty.stderr, SOURCE_NOTE);
  assert.match(empty.stderr, /^engram model: 模型文件校验没有通过.*\[model-unverified\]\n$/);
  // A model folder whose files are not the pinned ones.
  const modelDir = join(cache, 'BAAI/bge-small-zh-v1.5');
  mkdirSync(join(modelDir, 'onnx'), { recursive: true });
  for (const file of ['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx', 'engram-model.json']) writeFileSync(join(modelDir, file), 'not a model file');
  const garbage = verify();
  assert.equal(garbage.code, 1, `a damaged model: ${garbage.stdout}${garbage.stderr}`);
  assert.match(garbage.stdout, /verification failed: .*config\.json has 16 bytes/);
  assert.match(garbage.stderr, /\[model-unverified\]/);
  const report = run(bin, ['model', 'status', '--data-dir', dirs.dataDir], env);
  assert.equal(report.code, 0, `without --verify it only reports: ${report.stderr}`);
  assert.equal(report.stderr, '');
});

test('compiled engram edit and forget find a diary file written by hand before anything synced it', () => {
  const dirs = tempDirs();
  const env = { HOME: dirs.root, ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, ENGRAM_EMBEDDING_PROVIDER: 'none' };
  // An index that exists (edit and forget open it without a sync) and has never seen the files below.
  const first = run(bin, ['write', '--title', '先有的一条', '--content', '先有的一条记忆,让索引存在。'], env);
  assert.equal(first.code, 0, first.stderr);
  const edited = '2026-11-02-手工笔记.txt';
  writeFileSync(join(dirs.diaryDir, edited), '[09:00] 手工笔记\n\n> 路由器\n\n家里路由器的管理地址是 192.168.1.1,密码在抽屉里。\n\nTag: 家里\n');
  const edit = run(bin, ['edit', edited, '--target', '家里路由器的管理地址是 192.168.1.1', '--replace', '家里路由器的管理地址是 192.168.50.1'], env);
  assert.equal(edit.code, 0, edit.stderr);
  assert.equal(edit.stderr, '', 'the build ran, without a note');
  assert.match(edit.stdout, /^edited 2026-11-02-手工笔记\.txt /);
  assert.match(readFileSync(join(dirs.diaryDir, edited), 'utf8'), /192\.168\.50\.1,密码在抽屉里/);
  const archived = '2026-11-03-手工二.txt';
  writeFileSync(join(dirs.diaryDir, archived), '[09:00] 手工二\n\n> 待归档\n\n这一条写完就归档。\n\nTag: 家里\n');
  const forget = run(bin, ['forget', archived], env);
  assert.equal(forget.code, 0, forget.stderr);
  assert.equal(forget.stderr, '');
  assert.ok(!readdirSync(dirs.diaryDir).includes(archived), 'moved out of the diary folder');
  assert.match(forget.stdout, /^archived 2026-11-03-手工二\.txt → /);
});
