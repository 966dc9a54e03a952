// The data folder holds a copy of every memory (the index), the install token and the settings: one
// the engine creates is the person's alone (0700), as ~/.ssh is, whatever the umask lets others read.
// An existing folder keeps the mode it has: the person chose it.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openEngine } from '../../src/engine.ts';
import { ensureToken } from '../../src/security/install-token.ts';

test('a data folder the engine creates is 0700; one that exists keeps its mode', { skip: process.platform === 'win32' }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-data-mode-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const fresh = join(root, 'home', '.engram');
  const engine = await openEngine({ options: { dataDir: fresh, diaryDir: join(root, 'diaries') }, env: { HOME: join(root, 'home'), ENGRAM_EMBEDDING_PROVIDER: 'none' }, createDiaryDir: true });
  engine.close();
  assert.equal(statSync(fresh).mode & 0o777, 0o700);

  const tokenOnly = join(root, 'token-first');
  ensureToken(tokenOnly);
  assert.equal(statSync(tokenOnly).mode & 0o777, 0o700, 'created by the token first (the console, MCP)');

  const existing = join(root, 'shared');
  mkdirSync(existing);
  chmodSync(existing, 0o750);
  const again = await openEngine({ options: { dataDir: existing, diaryDir: join(root, 'diaries') }, env: { HOME: join(root, 'home'), ENGRAM_EMBEDDING_PROVIDER: 'none' } });
  again.close();
  assert.equal(statSync(existing).mode & 0o777, 0o750);
});
