// Opening with the console's saved settings (#18, the settings domain). Settings that no longer
// validate (a newer version's keys, a hand-edited row, unreadable JSON) must not keep the engine
// from opening: the stored overlay is copied to backups/ and the offending leaves are dropped, with
// a warning. Also the diary folder's existence check at open.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSettingsOverlay, readSettingsOverlayText, writeSettingsOverlay, type Database } from '@engram/db';
import { getPath, isPlainObject, withPath } from '../config/merge.ts';
import { applyOverlay, type ResolvedBase } from '../config/resolve.ts';
import type { EngramConfig } from '../config/schema.ts';
import { EngramError, errorMessage } from '../errors.ts';
import { missingDiaryDirText } from '../diary/errors.ts';

/** The console's saved settings, applied over the deploy base; `notes` says what was repaired. */
export async function loadOverlay(db: Database, resolved: ResolvedBase, env: Record<string, string | undefined>) {
  const notes: string[] = [];
  let original: string | null = null;
  let overlay: Record<string, unknown>;
  try {
    const stored = await readSettingsOverlay(db.db);
    overlay = isPlainObject(stored) ? stored : {};
    if (!isPlainObject(stored)) original = JSON.stringify(stored);
  } catch (e) {
    original = await readSettingsOverlayText(db.db).catch(() => '');
    overlay = {};
    notes.push(`saved console settings were unreadable (${errorMessage(e)})`);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const config = applyOverlay(resolved, overlay, env);
      if (original !== null) {
        const backup = backupOverlay(resolved.base.dataDir, original);
        notes.push(`the saved console settings were repaired; the original is in ${backup}`);
        if (!db.readOnly) await writeSettingsOverlay(db.db, overlay);
      }
      return { overlay, config, notes };
    } catch (e) {
      if (!(e instanceof EngramError) || e.code !== 'config-invalid' || attempt >= 100) throw e;
      original ??= JSON.stringify(overlay);
      const issues = ((e.details?.issues ?? []) as { path?: PropertyKey[] }[]).map((i) => (i.path ?? []).map(String));
      let next = overlay;
      for (const path of issues) {
        // Drop the deepest part of the path the overlay actually has (the issue may name a child).
        for (let n = path.length; n > 0; n--) {
          if (getPath(next, path.slice(0, n)) !== undefined) {
            next = withPath(next, path.slice(0, n), undefined);
            notes.push(`ignored an invalid saved setting: ${path.slice(0, n).join('.')}`);
            break;
          }
        }
      }
      if (next === overlay) {
        if (Object.keys(overlay).length === 0) throw e; // the deploy base itself is invalid
        next = {};
        notes.push('ignored all saved console settings: they do not combine into a valid configuration');
      }
      overlay = next;
    }
  }
}

function backupOverlay(dataDir: string, text: string): string {
  const dir = join(dataDir, 'backups');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `settings-overlay-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, text);
  return file;
}

/** A missing diary folder is made, unless it was named explicitly and the caller (the CLI) refuses to create it. */
export function ensureDiaryDir(config: EngramConfig, resolved: ResolvedBase, create: boolean): void {
  refuseMissingDiaryDir(config, resolved, create);
  if (!existsSync(config.diaryDir)) mkdirSync(config.diaryDir, { recursive: true });
}

/**
 * Throws `diary-dir-missing` for a folder that is missing and may not be created: before the data
 * dir checks and remembers the folder, so a typo in its name is never remembered as the index's folder.
 */
export function refuseMissingDiaryDir(config: EngramConfig, resolved: ResolvedBase, create: boolean): void {
  if (existsSync(config.diaryDir)) return;
  const explicit = resolved.lockedByEnv.includes('diaryDir') || config.diaryDir !== join(config.dataDir, 'diaries');
  if (explicit && !create) throw new EngramError('diary-dir-missing', missingDiaryDirText(config.diaryDir));
}
