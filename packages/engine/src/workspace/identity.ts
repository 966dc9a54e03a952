// A workspace's identity apart from its path, so memories can follow a renamed or moved folder.
// Strong: the git remote (normalised) plus the package name: a repository is that repository
// wherever it is cloned. Weak: the names at the top level, for folders with neither; it can only
// suggest sameness, never prove it (see claim.ts for how little it is trusted).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface WorkspaceIdentity {
  /** Hash of the normalised git remote URL + package.json name; null without a git remote. */
  strong: string | null;
  /** Hash of the sorted top-level entry names (volatile ones ignored); '' when there are too few to mean anything. */
  weak: string;
  /** The absolute, normalised path. */
  path: string;
}

/** Build output, caches and tool state: they come and go without the workspace changing. */
export const VOLATILE_ENTRIES = new Set([
  '.git', '.hg', '.svn', 'node_modules', 'dist', 'build', 'out', 'target', 'coverage', '.next', '.nuxt', '.turbo',
  '.cache', '.parcel-cache', '.vite', '.venv', 'venv', '__pycache__', '.pytest_cache', '.mypy_cache', '.tox',
  '.idea', '.vscode', '.DS_Store', 'Thumbs.db', 'tmp', '.tmp', 'logs', 'Memory.md', '.engram',
]);
const VOLATILE_SUFFIX = /\.(log|tmp|swp|pid|lock)$|~$/i;

/** Fewer names than this (after dropping volatile ones) say too little: two near-empty folders look alike. */
export const MIN_WEAK_ENTRIES = 3;
/** Only the first names (sorted) count, so a folder that gains files keeps its identity for a while. */
export const WEAK_ENTRY_LIMIT = 30;

const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 24);

/**
 * One form for every way of writing a remote: scheme, user, port, `.git` and case of the host do
 * not matter (git@github.com:Org/Repo.git = https://github.com/Org/Repo = ssh://git@github.com/Org/Repo).
 */
export function normaliseRemoteUrl(url: string): string {
  let u = url.trim();
  if (u === '') return '';
  // scp-like syntax: [user@]host:path (no scheme, a colon before the first slash)
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(u);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) u = `ssh://${scp[1]}/${scp[2]}`;
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/]*@)?([^/:]+)(?::\d+)?(\/.*)?$/i.exec(u);
  if (m) {
    const path = (m[2] ?? '').replace(/\/+$/, '').replace(/\.git$/i, '').replace(/^\/+/, '');
    return `${m[1]!.toLowerCase()}/${path}`;
  }
  // A local path remote: keep it as written, minus trailing slashes and .git.
  return u.replace(/[\\/]+$/, '').replace(/\.git$/i, '');
}

/** Remote URLs from git config text, origin first, then the others by name. */
export function remotesFromGitConfig(text: string): { name: string; url: string }[] {
  const out: { name: string; url: string }[] = [];
  let remote: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[\s*([^\s\]"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
    if (section) {
      remote = section[1]!.toLowerCase() === 'remote' && section[2] !== undefined ? section[2] : null;
      continue;
    }
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (remote !== null && kv) out.push({ name: remote, url: kv[1]!.replace(/^"(.*)"$/, '$1').trim() });
  }
  return out.sort((a, b) => (a.name === 'origin' ? -1 : b.name === 'origin' ? 1 : a.name.localeCompare(b.name)));
}

/** The git config file of a working tree: .git/config, or via a `gitdir:` file (worktrees, submodules). */
function gitConfigPath(dir: string): string | null {
  const dotGit = join(dir, '.git');
  try {
    const st = statSync(dotGit);
    if (st.isDirectory()) return join(dotGit, 'config');
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m) return null;
    const gitDir = isAbsolute(m[1]!.trim()) ? m[1]!.trim() : resolve(dir, m[1]!.trim());
    // A linked worktree keeps its config in the main repository (named by `commondir`).
    const common = join(gitDir, 'commondir');
    const base = existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
    return join(base, 'config');
  } catch {
    return null;
  }
}

function readText(path: string | null): string | null {
  if (path === null) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function packageName(dir: string): string {
  const text = readText(join(dir, 'package.json'));
  if (text === null) return '';
  try {
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name.trim() : '';
  } catch {
    return '';
  }
}

/** The names that make up the weak fingerprint: sorted, volatile ones dropped, at most WEAK_ENTRY_LIMIT. */
export function weakEntries(names: string[]): string[] {
  return names
    .filter((n) => !VOLATILE_ENTRIES.has(n) && !VOLATILE_SUFFIX.test(n))
    .sort()
    .slice(0, WEAK_ENTRY_LIMIT);
}

/** Pure: the identity from what was read off the disk. */
export function identityFrom(input: { path: string; remoteUrl: string | null; packageName: string; entries: string[] }): WorkspaceIdentity {
  const remote = input.remoteUrl ? normaliseRemoteUrl(input.remoteUrl) : '';
  const entries = weakEntries(input.entries);
  return {
    strong: remote ? hash(`git:${remote}\npkg:${input.packageName}`) : null,
    weak: entries.length >= MIN_WEAK_ENTRIES ? hash(`entries:${entries.join('\n')}`) : '',
    path: normaliseWorkspacePath(input.path),
  };
}

/** Absolute, without a trailing separator (path.resolve drops it, and ./ and ../ segments). */
export function normaliseWorkspacePath(path: string): string {
  return resolve(path);
}

/** Reads a folder's identity (no git binary: the remote comes from the git config file). */
export function workspaceIdentity(dir: string): WorkspaceIdentity {
  const path = normaliseWorkspacePath(dir);
  const config = readText(gitConfigPath(path));
  const remoteUrl = config === null ? null : (remotesFromGitConfig(config)[0]?.url ?? null);
  let entries: string[] = [];
  try {
    entries = readdirSync(path);
  } catch {
    entries = [];
  }
  return identityFrom({ path, remoteUrl, packageName: packageName(path), entries });
}
