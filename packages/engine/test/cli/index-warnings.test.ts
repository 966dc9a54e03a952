// `engram index` on a folder of plain notes: a note without a "> summary" paragraph is fine (the
// summary is optional), so it must not cost the user one warning line per note. What a user can fix
// is still named with its file; the full list is one flag away.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '../engine/helpers.ts';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));

function engram(args: string[], home: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: home }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const SUMMARY = /missing "> summary" paragraph/;

function plainNotes(diaryDir: string, n: number): void {
  for (let i = 0; i < n; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    writeFileSync(join(diaryDir, `2026-10-${day}-note-${i}.txt`), `[09:00] 笔记 ${i}\n\n第 ${i} 条笔记的正文,没有摘要段落。\n\nTag: 笔记\n`);
  }
  // One a user can fix: no Tag line although tags are required.
  writeFileSync(join(diaryDir, '2026-11-01-untagged.txt'), '[10:00] 没有标签的笔记\n\n> 摘要。\n\n正文。\n');
}

test('index reports optional gaps as one counted line, names fixable problems, and lists everything with --warnings', () => {
  const dirs = tempDirs();
  const notes = 40;
  plainNotes(dirs.diaryDir, notes);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];

  const quiet = engram(['index', ...common], dirs.root);
  assert.equal(quiet.code, 0, quiet.stderr);
  const lines = quiet.stdout.trim().split('\n');
  const summaryLines = lines.filter((l) => SUMMARY.test(l));
  assert.equal(summaryLines.length, 1, `one line for the ${notes} notes without a summary:\n${quiet.stdout}`);
  assert.match(summaryLines[0]!, new RegExp(`\\b${notes}\\b`), 'with their count');
  assert.match(summaryLines[0]!, /optional/, 'and says the summary is optional');
  assert.doesNotMatch(summaryLines[0]!, /^warning/, 'an optional gap is not a warning');
  const fixable = lines.filter((l) => l.includes('2026-11-01-untagged.txt'));
  assert.equal(fixable.length, 1, `the fixable problem is named with its file:\n${quiet.stdout}`);
  assert.match(fixable[0]!, /^warning: .*Tag/);
  assert.ok(lines.some((l) => l.includes('engram index --warnings')), `says where the full list is:\n${quiet.stdout}`);
  assert.ok(lines.length < 12, `a short report (${lines.length} lines)`);

  const all = engram(['index', '--warnings', ...common], dirs.root);
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stdout.split('\n').filter((l) => SUMMARY.test(l)).length, notes, 'every note is listed with --warnings');

  const json = engram(['index', '--json', ...common], dirs.root);
  const report = JSON.parse(json.stdout) as { warnings: string[] };
  assert.equal(report.warnings.filter((w) => SUMMARY.test(w)).length, notes, '--json keeps the whole list for scripts');
});

test('status groups the per-file warnings the same way', () => {
  const dirs = tempDirs();
  plainNotes(dirs.diaryDir, 25);
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  assert.equal(engram(['index', ...common], dirs.root).code, 0);
  const status = engram(['status', ...common], dirs.root);
  assert.equal(status.code, 0, status.stderr);
  const summaryLines = status.stdout.split('\n').filter((l) => SUMMARY.test(l));
  assert.equal(summaryLines.length, 1, status.stdout);
  assert.match(summaryLines[0]!, /\b25\b/);
  assert.ok(status.stdout.includes('2026-11-01-untagged.txt'), status.stdout);
  const all = engram(['status', '--warnings', ...common], dirs.root);
  assert.equal(all.stdout.split('\n').filter((l) => SUMMARY.test(l)).length, 25, all.stdout);
});

test('notes that share a title (daily notes, a synced folder) cost one counted line, not one each', () => {
  const dirs = tempDirs();
  const days = 30;
  for (let i = 0; i < days; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    writeFileSync(join(dirs.diaryDir, `2026-${i < 28 ? '10' : '11'}-${day}-daily.txt`), `[18:00] 日报\n\n> 第 ${i} 天。\n\n今天做了第 ${i} 件事。\n\nTag: 日报\n`);
  }
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir];
  const quiet = engram(['index', ...common], dirs.root);
  assert.equal(quiet.code, 0, quiet.stderr);
  const lines = quiet.stdout.trim().split('\n');
  const titleLines = lines.filter((l) => /same title as/.test(l));
  assert.equal(titleLines.length, 1, `one line for the ${days - 1} notes titled like another:\n${quiet.stdout}`);
  assert.match(titleLines[0]!, new RegExp(`\\b${days - 1} files\\b`), 'with their count');
  assert.match(titleLines[0]!, /daily\.txt/, 'and one of them as an example');
  assert.ok(lines.length < 8, `a short report (${lines.length} lines):\n${quiet.stdout}`);
  const all = engram(['index', '--warnings', ...common], dirs.root);
  assert.equal(all.stdout.split('\n').filter((l) => /same title as/.test(l)).length, days - 1, 'every one with --warnings');
});
