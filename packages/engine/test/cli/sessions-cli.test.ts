import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '../engine/helpers.ts';
import { IDS, makeHome } from '../sessions/home.ts';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
const engram = (args: string[], env: Record<string, string>) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

test('engram sessions lists a folder\'s past sessions; import-sessions imports them once, one memory per topic; --thinking keeps the reasoning', async (t) => {
  const home = await makeHome(t);
  const dirs = tempDirs();
  const env = { HOME: dirs.root, DSH_HOME: home };
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--cwd', '/work/alpha'];

  const listed = engram(['sessions', ...common, '--json'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const sessions = JSON.parse(listed.stdout) as { id: string; status: string }[];
  assert.deepEqual(sessions.map((s) => s.id).sort(), [IDS.rich, IDS.sub].sort(), 'the folder and its sub-folder, no subagent, no neighbour');
  assert.ok(sessions.every((s) => s.status === 'new'));

  const first = engram(['import-sessions', ...common, '--all', '--json'], env);
  assert.equal(first.code, 0, first.stderr);
  const report = JSON.parse(first.stdout) as { workspace: string; imported: number; skipped: number };
  assert.equal(report.imported, 3, 'the rich session asks two unrelated things: two memories, and one for the sub-folder session');
  assert.match(report.workspace, /^ws-[0-9a-f]{8}$/);

  const again = engram(['import-sessions', ...common, IDS.rich, '--json'], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal((JSON.parse(again.stdout) as { skipped: number; imported: number }).skipped, 2, 'an unchanged session is skipped, both its topics');

  const list = engram(['list', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--workspace', report.workspace, '--json'], env);
  const memories = JSON.parse(list.stdout) as { workspace: string; sessionId: string; origin: string; path: string }[];
  assert.equal(memories.length, 3);
  assert.ok(memories.every((m) => m.workspace === report.workspace && m.origin === 'import'));
  assert.deepEqual(memories.map((m) => m.sessionId).sort(), [IDS.rich, IDS.rich, IDS.sub].sort());

  const withThinking = engram(['import-sessions', ...common, IDS.rich, '--thinking', '--json'], env);
  assert.equal(withThinking.code, 0, withThinking.stderr);
  assert.deepEqual((JSON.parse(withThinking.stdout) as { updated: number; imported: number }).updated, 2, 'asked for the reasoning: both topics rewritten in place');
  const after = JSON.parse(engram(['list', '--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--workspace', report.workspace, '--json'], env).stdout) as unknown[];
  assert.equal(after.length, 3, 'no duplicate');
  const texts = memories.filter((m) => m.sessionId === IDS.rich).map((m) => readFileSync(join(dirs.diaryDir, m.path), 'utf8')).join('\n');
  assert.match(texts, /思考:\n> THOUGHT-ONE/);

  const bad = engram(['import-sessions', ...common], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /needs session ids/);
});
