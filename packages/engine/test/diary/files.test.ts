// Reading one diary file as the scanner does (diary/files.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTextFile, readTextFileSync } from '../../src/diary/files.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'engram-files-'));

test('reads a file with its size and time as the asynchronous reader does, and refuses what is not a diary', async () => {
  const d = dir();
  const note = join(d, 'a.txt');
  writeFileSync(note, '[09:30] 标题\n正文：东京节点的端口是 443。\r\n');
  const sync = readTextFileSync(note);
  assert.deepEqual(sync, await readTextFile(note));
  assert.ok(sync.ok && sync.size === Buffer.byteLength('[09:30] 标题\n正文：东京节点的端口是 443。\r\n') && sync.text.endsWith('443。\r\n'));
  writeFileSync(join(d, 'empty.txt'), '');
  assert.deepEqual(readTextFileSync(join(d, 'empty.txt')), await readTextFile(join(d, 'empty.txt')));
  writeFileSync(join(d, 'big.txt'), 'x'.repeat(101));
  assert.match((readTextFileSync(join(d, 'big.txt'), 100) as { reason: string }).reason, /too large \(101 bytes > 100\)/);
  mkdirSync(join(d, 'folder.txt'));
  assert.deepEqual(readTextFileSync(join(d, 'folder.txt')), { ok: false, reason: 'not a regular file' });
  assert.match((readTextFileSync(join(d, 'gone.txt')) as { reason: string }).reason, /unreadable \(ENOENT\)/);
  for (const name of ['big.txt', 'folder.txt', 'gone.txt']) assert.deepEqual(await readTextFile(join(d, name), 100), readTextFileSync(join(d, name), 100), `${name}: both readers alike`);
});

test('refuses a FIFO named like a diary without waiting for a writer', { skip: process.platform === 'win32' }, async () => {
  const fifo = join(dir(), 'pipe.txt');
  execFileSync('mkfifo', [fifo]);
  assert.deepEqual(readTextFileSync(fifo), { ok: false, reason: 'not a regular file' });
  assert.deepEqual(await readTextFile(fifo), { ok: false, reason: 'not a regular file' });
});
