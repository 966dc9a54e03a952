// kill -9 at random moments while a process writes diaries, edits them, saves whole files, archives
// and rebuilds the index. After every kill: no diary is empty or cut short, the database opens
// without recovery and holds whole documents only (old rows or new rows, never a mix), the dead
// writer's lock is taken over at once, and the next start brings the index in line with the files.
// ENGRAM_CRASH_TRIALS=200 for the long run reported in docs/reliability.md.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '@engram/db';
import { openEngine } from '../../src/engine.ts';
import { parseDiaryText } from '../../src/diary/parse.ts';
import { isTempFileName } from '../../src/diary/fsio.ts';
import { here, listAll, repoRoot, seedDiaries, tempDirs, trials } from './helpers.ts';

const WORKER = join(here, 'workers/crash-writer.ts');
const EDIT_PREFIX = '可编辑标记行:这一行会被反复替换掉';
/** The operations the writer announces with "begin <op>", interrupted in turn by the phase-driven kills. */
const PHASES = ['write', 'edit', 'index', 'save', 'forget'];

interface Trial {
  interrupted: string;
  opsBefore: number;
}

/**
 * Runs the writer and kills it with SIGKILL: `delayMs` after it is ready, after spawn (`when: 'early'`),
 * or `delayMs` after it announces an operation of the kind `when` names. The phase-driven kills make
 * sure every kind of operation is interrupted however fast or slow the machine is; the timed ones keep
 * the moments random.
 */
function runAndKill(dirs: { diaryDir: string; dataDir: string }, seed: number, delayMs: number, when: 'early' | 'ready' | { op: string }): Promise<Trial> {
  const early = when === 'early';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dirs.diaryDir, dirs.dataDir, String(seed)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    const kill = () => child.kill('SIGKILL');
    if (early) timer = setTimeout(kill, delayMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (timer) return;
      if (when === 'ready' && out.includes('ready\n')) timer = setTimeout(kill, delayMs);
      // Only while the announced operation is still running: its "done" has not been printed yet.
      else if (typeof when === 'object' && out.endsWith(`begin ${when.op}\n`)) timer = setTimeout(kill, delayMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const guard = setTimeout(kill, 60_000);
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(guard);
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`writer ended by itself (${signal ?? _code}):\n${err}`));
      const lines = out.trim().split('\n');
      const unexpected = lines.filter((l) => l.startsWith('error') && !/not-found|already-archived|conflict|title-exists/.test(l));
      if (unexpected.length > 0) return reject(new Error(`writer reported: ${unexpected.join('\n')}`));
      const last = lines.at(-1) ?? '';
      const interrupted = !out.includes('ready') ? 'open' : last.startsWith('begin ') ? last.slice(6) : 'between operations';
      resolve({ interrupted, opsBefore: lines.filter((l) => l === 'done').length });
    });
  });
}

const parseInfo = (path: string) => ({ root: 'diary' as const, path, mtimeMs: 0, size: 0, archiveFolder: '已整理', requireTag: true, timePrefix: true });

/** Every diary on disk is whole: ends with its Tag line, and an edited line is never cut. */
function checkFiles(diaryDir: string): { titles: string[]; temps: number } {
  const titles: string[] = [];
  let temps = 0;
  for (const rel of listAll(diaryDir)) {
    const name = rel.split('/').at(-1)!;
    if (isTempFileName(name)) {
      temps++;
      continue;
    }
    const text = readFileSync(join(diaryDir, rel), 'utf8');
    assert.ok(text.length > 0, `${rel} is empty`);
    const lines = text.trimEnd().split('\n');
    assert.match(lines.at(-1)!, /^Tag: /, `${rel} is cut short:\n${text.slice(-200)}`);
    for (const l of lines.filter((x) => x.startsWith(EDIT_PREFIX))) assert.match(l, new RegExp(`^${EDIT_PREFIX}(-\\d+)?$`), `${rel}: half an edit`);
    const doc = parseDiaryText(text, parseInfo(rel));
    if (!rel.startsWith('已整理/')) titles.push(doc.title);
  }
  return { titles: titles.sort(), temps };
}

/** Rows are whole documents: no chunk without its document, no document without its chunks. */
async function checkDatabase(dataDir: string): Promise<void> {
  const db = await openDatabase({ url: `file:${join(dataDir, 'engram.db')}` });
  try {
    assert.equal(db.recovered, null);
    const orphans = await db.client.execute('SELECT COUNT(*) AS n FROM chunks WHERE doc_id NOT IN (SELECT id FROM documents)');
    assert.equal(Number(orphans.rows[0]!.n), 0, 'chunks without a document');
    const hollow = await db.client.execute('SELECT COUNT(*) AS n FROM documents WHERE id NOT IN (SELECT doc_id FROM chunks)');
    assert.equal(Number(hollow.rows[0]!.n), 0, 'documents without chunks');
    const check = await db.client.execute('PRAGMA integrity_check');
    assert.equal(String(Object.values(check.rows[0]!)[0]), 'ok');
  } finally {
    db.close();
  }
}

test('kill -9 during writes, edits, saves, archiving and index builds leaves whole files and a usable index', { timeout: 600_000 }, async () => {
  const total = trials(20);
  const lanes = 2;
  const interrupted = new Map<string, number>();
  let tempsFound = 0;
  let ops = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      const dirs = tempDirs(`engram-crash-${lane}-`);
      seedDiaries(dirs.diaryDir, 40);
      for (const rel of listAll(dirs.diaryDir)) {
        const file = join(dirs.diaryDir, rel);
        const text = readFileSync(file, 'utf8');
        const at = text.lastIndexOf('\nTag:');
        writeFileSync(file, `${text.slice(0, at)}\n${EDIT_PREFIX}\n${text.slice(at)}`);
      }
      for (let t = lane; t < total; t += lanes) {
        const seed = 1000 + t;
        // Every fifth kill lands while the writer opens and indexes; of the rest, half land at a random
        // moment and half inside a chosen kind of operation (in turn), a few milliseconds after it began.
        const when = t % 5 === 4 ? 'early' : t % 2 === 0 ? 'ready' : { op: PHASES[Math.floor(t / 2) % PHASES.length]! };
        const delay = when === 'early' ? 300 + ((seed * 7919) % 1500) : when === 'ready' ? (seed * 104_729) % 700 : seed % 3;
        const trial = await runAndKill(dirs, seed, delay, when);
        interrupted.set(trial.interrupted, (interrupted.get(trial.interrupted) ?? 0) + 1);
        ops += trial.opsBefore;

        const files = checkFiles(dirs.diaryDir);
        await checkDatabase(dirs.dataDir);
        // The next start takes the dead writer's lock over and brings the index in line with the files.
        const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: dirs.diaryDir, ENGRAM_DATA_DIR: dirs.dataDir, HOME: dirs.dataDir }, writerLock: { staleMs: 3_600_000, waitMs: 5_000 } });
        try {
          const listed = (await engine.list()).filter((m) => m.root === 'diary').map((m) => m.title).sort();
          assert.deepEqual(listed, files.titles, `trial ${t} (${trial.interrupted}): index and files disagree`);
        } finally {
          engine.close();
        }
        tempsFound += files.temps;
        const after = listAll(dirs.diaryDir).filter((p) => isTempFileName(p.split('/').at(-1)!));
        assert.deepEqual(after, [], 'the next start removed the dead writer’s temp files');
      }
    }),
  );
  const summary = { trials: total, operationsCompleted: ops, interrupted: Object.fromEntries(interrupted), tempFilesSwept: tempsFound };
  console.log(`# crash-safety ${JSON.stringify(summary)}`);
  for (const op of ['write', 'edit', 'index']) assert.ok((interrupted.get(op) ?? 0) > 0 || total < 20, `no kill landed during ${op}`);
});
