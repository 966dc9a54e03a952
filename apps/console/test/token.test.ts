import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureToken, tokenPath } from '@engram/engine';

test('the install token is created once, owner-only, and reused', () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'engram-token-')), 'data');
  const first = ensureToken(dir);
  assert.ok(first.length >= 32);
  assert.equal(statSync(tokenPath(dir)).mode & 0o777, 0o600);
  assert.equal(ensureToken(dir), first);
  assert.equal(readFileSync(tokenPath(dir), 'utf8').trim(), first);
});

test('a truncated token file is replaced by a fresh token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-token-'));
  writeFileSync(tokenPath(dir), 'short\n');
  const token = ensureToken(dir);
  assert.notEqual(token, 'short');
  assert.ok(token.length >= 32);
  assert.equal(ensureToken(dir), token);
});
