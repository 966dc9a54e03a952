import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
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
    { args: ['edit', 'nope', '--target', 'a', '--replace', 'b', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir], code: 1, pattern: /no memory/ },
  ];
  for (const c of cases) {
    const r = engram(c.args, { env: { HOME: dirs.root } });
    assert.equal(r.code, c.code, `${c.args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, c.pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, `one line: ${r.stderr}`);
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
