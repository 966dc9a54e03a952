// The plugin's diagnostics log keeps to its size cap: every file at most maxBytes, at most `keep`
// rotated files besides the current one, whatever the lines look like (a line longer than the whole
// cap included), and the newest lines are the ones kept.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LOG_DIR_NAME, LOG_FILE_NAME, RotatingLog } from '../src/host/core/log-file.ts';

function dataDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-log-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const filesOf = (dir: string) => readdirSync(join(dir, LOG_DIR_NAME)).sort();
const sizeOf = (dir: string, name: string) => statSync(join(dir, LOG_DIR_NAME, name)).size;

test('diagnostics log: rotation keeps every file under the cap and only `keep` old files', (t) => {
  const dir = dataDir(t);
  const log = new RotatingLog({ maxBytes: 2_000, keep: 2, now: () => new Date('2026-12-03T10:00:00Z') });
  assert.equal(log.open(dir), null);
  for (let i = 0; i < 500; i++) log.append('info', `recall 第 ${i} 行 session=s-${i} hits=${i % 7}`);
  assert.deepEqual(filesOf(dir), [LOG_FILE_NAME, `${LOG_FILE_NAME}.1`, `${LOG_FILE_NAME}.2`]);
  for (const name of filesOf(dir)) assert.ok(sizeOf(dir, name) <= 2_000, `${name}: ${sizeOf(dir, name)} bytes > 2000`);
  assert.match(log.tail(1)[0]!, /第 499 行/, 'the newest line is kept');
  assert.equal(log.failure, null);
});

test('diagnostics log: a line longer than the cap is cut to fit, not written whole', (t) => {
  const dir = dataDir(t);
  const log = new RotatingLog({ maxBytes: 1_000, keep: 1 });
  log.open(dir);
  log.append('info', 'before');
  log.append('warn', `huge ${'记'.repeat(5_000)}`);
  log.append('info', 'after');
  for (const name of filesOf(dir)) assert.ok(sizeOf(dir, name) <= 1_000, `${name}: ${sizeOf(dir, name)} bytes > 1000`);
  assert.ok(filesOf(dir).length <= 2);
  const all = filesOf(dir).map((n) => readFileSync(join(dir, LOG_DIR_NAME, n), 'utf8')).join('');
  assert.match(all, /WARN huge 记+… \(cut\)/, 'the long line is there, cut and marked');
  assert.ok(!all.includes('\uFFFD'), 'the cut does not split a character');
  assert.match(log.tail(1)[0]!, /INFO after$/);
  assert.ok(existsSync(join(dir, LOG_DIR_NAME, LOG_FILE_NAME)));
});

// A corrupt database failed every tool with "Failed query: select … params: …" alone: drizzle keeps
// SQLite's own words (SQLITE_CORRUPT, not a database) in the error's cause, which the text dropped.
test('an error is told with what caused it, code and message, once', async () => {
  const { errorText } = await import('../src/host/core/log.ts');
  const sqlite = Object.assign(new Error('SQLITE_CORRUPT: database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
  const failed = new Error('Failed query: select "id" from "documents" where "id" = ? params: 1a2b', { cause: sqlite });
  const text = errorText(failed);
  assert.match(text, /^Failed query: select .* — SQLITE_CORRUPT: database disk image is malformed$/);
  assert.equal(errorText(sqlite), '[SQLITE_CORRUPT] SQLITE_CORRUPT: database disk image is malformed');
  const same = new Error('boom', { cause: new Error('boom') });
  assert.equal(errorText(same), 'boom', 'a cause that says the same is not repeated');
  assert.equal(errorText(Object.assign(new Error('no such memory'), { code: 'not-found' })), '[not-found] no such memory');
});
