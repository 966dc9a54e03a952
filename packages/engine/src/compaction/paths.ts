// Where a session's compaction files live: <dataDir>/compaction/<workspace>/<session>/. Session ids
// and workspace paths come from the host (and, through routes, from requests), so they are never
// used as path segments as given: only [A-Za-z0-9._-] survives, anything changed gets a hash
// suffix (two different ids never share a folder), and every join goes through safeJoin.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiaryError } from '../diary/errors.ts';
import { isInside } from '../diary/fsio.ts';
import type { SessionScope } from './types.ts';

export const COMPACTION_DIR = 'compaction';
export const TRASH_DIR = '_trash';
export const RULES_FILE = 'minor-rules.md';
export const ARCHIVE_FILE = 'archive.md';
/** The session's last question and model, so "look again" works after a host restart. */
export const LOOK_AGAIN_FILE = 'look-again.json';

const hash = (value: string, n: number): string => createHash('sha1').update(value).digest('hex').slice(0, n);
const PLAIN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A folder name for an untrusted string: itself when plain, else a cleaned prefix plus a hash. */
export function safeSegment(value: string, fallback = 'x'): string {
  if (PLAIN.test(value) && !value.includes('..')) return value;
  const cleaned = value
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 40)
    .replace(/[.-]+$/, '');
  return `${cleaned || fallback}-${hash(value, 10)}`;
}

/** The workspace's last path segment plus a hash of the whole path ('' → global). */
export function workspaceSegment(workspace: string): string {
  if (workspace === '') return 'global';
  const last = workspace.split(/[\\/]+/).filter(Boolean).at(-1) ?? '';
  const cleaned = last.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/\.{2,}/g, '.').replace(/^[^A-Za-z0-9]+/, '').slice(0, 40).replace(/[.-]+$/, '');
  return `${cleaned || 'ws'}-${hash(workspace, 10)}`;
}

export const sessionSegment = (sessionId: string): string => safeSegment(sessionId, 'session');

/** Relative path (inside the data dir) of a session's folder. */
export const sessionDir = (scope: SessionScope): string => `${COMPACTION_DIR}/${workspaceSegment(scope.workspace)}/${sessionSegment(scope.sessionId)}`;

/**
 * For deletes: `target` must lie strictly inside `root` — equal to the root is refused too — both
 * lexically and after resolving symlinks.
 */
export function assertStrictlyInside(root: string, target: string): void {
  const rootAbs = resolve(root);
  const targetAbs = resolve(target);
  if (targetAbs === rootAbs || !isInside(rootAbs, targetAbs)) throw new DiaryError('path-escape', `refusing to touch a path outside ${rootAbs}: ${targetAbs}`, { path: targetAbs });
  let realRoot: string;
  let realTarget: string;
  try {
    realRoot = realpathSync(rootAbs);
    realTarget = realpathSync(targetAbs);
  } catch {
    throw new DiaryError('not-found', `no such path: ${targetAbs}`, { path: targetAbs });
  }
  if (realTarget === realRoot || !isInside(realRoot, realTarget)) throw new DiaryError('path-escape', `path leaves ${rootAbs} through a symlink: ${targetAbs}`, { path: targetAbs });
}
