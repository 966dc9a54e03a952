// Remote mode: one machine owns the diary folder and writes the index; others read. The owner is
// recorded in the shared database (host + diary folder). Without this, a second machine opening the
// server would "sync" its own copy of the folder into it — and remove every row it does not have.
import { hostname } from 'node:os';
import { getMeta, setMeta, type EngramDb } from '@engram/db';

const OWNER_KEY = 'index-owner';

/** A database other engines share: anything but an embedded file or an in-memory database. */
export const isSharedDatabaseUrl = (url: string): boolean => !url.startsWith('file:') && url !== ':memory:';

export const indexOwnerId = (diaryDir: string, host = hostname()): string => `${host}:${diaryDir}`;

/**
 * Claims the index for `self` when nobody owns it (or when `take` is set), and returns null: this
 * engine indexes. When another owner is recorded, returns it: this engine only reads.
 */
export async function claimIndexOwner(db: EngramDb, self: string, take: boolean): Promise<string | null> {
  const owner = await getMeta(db, OWNER_KEY);
  if (owner === self) return null;
  if (owner === undefined || take) {
    await setMeta(db, OWNER_KEY, self);
    return null;
  }
  return owner;
}
