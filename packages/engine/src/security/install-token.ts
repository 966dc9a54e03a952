// The per-install token that every console or plugin mutation must carry. Created on first start
// next to the data, readable only by its owner; the console page embeds it for same-origin use, and
// the plugin reads the same file so both halves agree on one secret.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TOKEN_FILE = 'console-token';

export const tokenPath = (dataDir: string): string => join(dataDir, TOKEN_FILE);

function readToken(file: string): string | null {
  try {
    const value = readFileSync(file, 'utf8').trim();
    return value.length >= 32 ? value : null;
  } catch {
    return null;
  }
}

/**
 * Creates the data folder (and any missing parent) for the person alone, 0700: it holds a copy of every
 * memory, the install token and the settings. A folder that exists keeps its mode.
 */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

export function ensureToken(dataDir: string): string {
  const file = tokenPath(dataDir);
  const existing = readToken(file);
  if (existing) return existing;
  ensureDataDir(dataDir);
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Another process created it first: use theirs. A short/garbled file is replaced.
    const raced = readToken(file);
    if (raced) return raced;
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return token;
}
