// The project's docs and code speak of the project, never of how it was made: no "session 4",
// "helper B", "the lead", "last/next session" or "added in session". ("This session" and "helper
// thread" are product words: a DSH chat session, a worker thread of the vector scan.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const JOURNAL = [/\bsession \d+\b(?![.\d])/i, /\bhelper [A-Z]\b/, /\bthe lead\b/i, /\b(last|next) session\b/i, /\badded in session\b/i];
const TEXT = /\.(md|ts|tsx|mts|mjs|js|json|css|yml|yaml|sh)$/;
// Generated or borrowed: the plugin's bundle, word tables, benchmark corpora, lock files.
const SKIP = [/^apps\/plugin\/bundle\/lib\//, /\/bench\/data\//, /-table\.ts$/, /package-lock\.json$/, /^scripts\/journal-words\.test\.mjs$/];

/** Every line of a tracked text file that reads like a journal. */
export function journalLines(files, read) {
  const found = [];
  for (const file of files) {
    if (!TEXT.test(file) || SKIP.some((re) => re.test(file))) continue;
    read(file).split('\n').forEach((line, i) => {
      if (JOURNAL.some((re) => re.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

test('the patterns catch journal words and let product words through', () => {
  const text = {
    'a.md': 'added in session 4\nas helper B found\nthe lead measured it\nlast session it was 3 s',
    'b.ts': "// this session's own rules\n// shares scans with a helper thread\nsession 8.27",
  };
  assert.deepEqual(
    journalLines(Object.keys(text), (f) => text[f]).map((l) => l.split(': ')[0]),
    ['a.md:1', 'a.md:2', 'a.md:3', 'a.md:4'],
  );
});

test('no tracked doc or source speaks of how the project was made', () => {
  const ls = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  assert.equal(ls.status, 0, ls.stderr);
  const files = ls.stdout.split('\0').filter(Boolean);
  assert.ok(files.length > 100, 'git lists the repository');
  assert.deepEqual(journalLines(files, (f) => readFileSync(join(root, f), 'utf8')), []);
});
