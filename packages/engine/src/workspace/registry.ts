// Which workspace a folder is, over the database: the identity and the claim decision are pure
// (identity.ts, claim.ts); this applies them and keeps the record. A memory names its workspace by
// id in its own file, so a rename only moves the workspace row's path; a move or a merge rewrites
// the memories' Meta lines through the engine's writer. The registry's own writes run under the
// same writer lock as the engine's: it orders them with every other write, in this process and in
// the console's, and waiting for it is asynchronous (SQLite's busy wait would block the event loop).
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import {
  claimWorkspacePath,
  createWorkspaceWithRecord,
  finishWorkspaceMerge,
  getWorkspaceByPath,
  getWorkspaceClaim,
  getWorkspaceRow,
  insertWorkspaceClaim,
  listWorkspaceClaims,
  listWorkspaceRows,
  memoryCountsByWorkspace,
  mergedInto,
  renameWorkspace,
  settleWorkspaceClaim,
  touchWorkspace,
  type ClaimStatus,
  type WorkspaceClaimRow,
  type WorkspaceRow,
} from '@engram/db';
import type { MemorySummary } from '../api.ts';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { ConfigSource, DatabaseSource, MemoryReader, MemoryWriter, WriterLockSource } from '../memories/ports.ts';
import { EngramError } from '../errors.ts';
import { decideClaim, type ClaimDecision, type KnownWorkspace } from './claim.ts';
import { normaliseWorkspacePath, workspaceIdentity, type WorkspaceIdentity } from './identity.ts';
import { movedFromReason, pastPathsOf } from './past-paths.ts';
import { systemFolderProblem } from './system-folders.ts';
import { unknownWorkspaceText } from './unknown.ts';

/** What the registry needs of the engine: its database, the memory list and the Meta-line writer. */
export type WorkspaceEngine = DatabaseSource & ConfigSource & WriterLockSource & Pick<MemoryReader, 'list' | 'resolve'> & Pick<MemoryWriter, 'updateMeta'>;

export interface ResolvedWorkspace {
  id: string;
  name: string;
  path: string;
  /** What the claim table decided for this folder (an automatic claim turned off reads as 'ask'). */
  decision: ClaimDecision;
  /** The claim record this call wrote (claim / ask / new), null for 'same'. */
  claimId: number | null;
}

export interface WorkspaceInfo {
  id: string;
  name: string;
  /** '' for global and for ids only memories know (no row: made on another machine, or merged away). */
  path: string;
  kind: 'global' | 'known' | 'orphan';
  pathExists: boolean;
  strongKey: string | null;
  weakKey: string;
  createdAt: string | null;
  lastSeenAt: string | null;
  /** Live (not archived) memories carrying this id. */
  memories: number;
}

export interface WorkspaceClaim {
  id: number;
  at: string;
  path: string;
  workspaceId: string | null;
  candidates: string[];
  decision: WorkspaceClaimRow['decision'];
  status: ClaimStatus;
  reason: string;
}

export interface RewriteReport {
  /** Memories whose Meta line now names the target. */
  moved: string[];
  /** Memories that could not be rewritten (read-only legacy files, a failed write), with why. */
  skipped: { docId: string; reason: string }[];
}

export interface WorkspaceRegistryOptions {
  now?: () => Date;
  /** The user's home folder (refused by register as a workspace itself); default os.homedir(). */
  home?: string;
}

/** A known folder's fingerprint refresh is skipped rather than waited for when someone else is writing. */
const TOUCH_WAIT_MS = 1_000;
const newId = (): string => `ws-${randomBytes(4).toString('hex')}`;
const nameOf = (path: string): string => basename(path) || path;
const isUniqueViolation = (e: unknown): boolean => /UNIQUE constraint failed/i.test(String((e as { message?: unknown })?.message ?? e) + String((e as { cause?: unknown })?.cause ?? ''));

export class WorkspaceRegistry {
  private readonly now: () => Date;
  private readonly home: string;

  constructor(
    private readonly engine: WorkspaceEngine,
    options: WorkspaceRegistryOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.home = options.home ?? homedir();
  }

  private get db() {
    return this.engine.db;
  }

  /**
   * The workspace of a folder, creating or claiming one as the decision table says. Safe to run in
   * two processes at once: a new folder is decided again under the writer lock, and the unique path
   * makes a racing insert lose and read the winner's row.
   */
  async resolve(cwd: string, options: { autoClaim?: boolean; now?: Date; lockWaitMs?: number } = {}): Promise<ResolvedWorkspace> {
    if (typeof cwd !== 'string' || cwd.trim() === '') throw new EngramError('bad-input', 'a folder path is required');
    const identity = workspaceIdentity(cwd);
    const at = (options.now ?? this.now()).toISOString();
    const autoClaim = options.autoClaim ?? this.engine.config.workspace.autoClaim;
    // The common case, a known folder, needs no lock: refreshing its fingerprints can wait.
    const seen = await this.decide(identity, autoClaim);
    if (seen.decision.kind === 'same') {
      const row = seen.rows.find((r) => r.id === (seen.decision as { id: string }).id)!;
      await this.locked(() => touchWorkspace(this.db, row.id, { lastSeenAt: at, strongKey: identity.strong, weakKey: identity.weak }), TOUCH_WAIT_MS).catch(() => undefined);
      return { id: row.id, name: row.name, path: row.path, decision: seen.decision, claimId: null };
    }
    // Deciding again under the lock: another process may have settled this folder meanwhile. A
    // process that writes without the lock can still win a race; the loop then reads its result.
    return this.locked(async () => {
      for (let attempt = 0; attempt < 4; attempt++) {
        const outcome = await this.resolveOnce(identity, autoClaim, at);
        if (outcome) return outcome;
      }
      throw new EngramError('workspace-busy', `could not settle the workspace of ${identity.path}: it kept changing under us`);
    }, options.lockWaitMs);
  }

  /**
   * The workspace of a folder a person registers by hand (the console): resolve, but the root, a
   * system folder or the home folder itself is refused (`system-folder`, with the reason) — as
   * written and, where the folder exists, with symlinks followed (a link to /etc is /etc).
   */
  async register(path: string, options: { now?: Date; lockWaitMs?: number } = {}): Promise<ResolvedWorkspace> {
    if (typeof path !== 'string' || path.trim() === '') throw new EngramError('bad-input', 'a folder path is required');
    let real: string | null = null;
    try {
      real = realpathSync(path);
    } catch {
      // not there (yet): the path as written is all there is to check
    }
    for (const candidate of real === null ? [path] : [path, real]) {
      const problem = systemFolderProblem(candidate, this.home);
      if (problem) throw new EngramError('system-folder', problem, { path: candidate });
    }
    return this.resolve(path, options);
  }

  private locked<T>(fn: () => Promise<T>, waitMs?: number): Promise<T> {
    return this.engine.writerLock.run('workspace', fn, waitMs);
  }

  private async decide(identity: WorkspaceIdentity, autoClaim: boolean): Promise<{ rows: WorkspaceRow[]; decision: ClaimDecision }> {
    const rows = await listWorkspaceRows(this.db);
    const known: KnownWorkspace[] = rows.map((r) => ({ id: r.id, path: r.path, strong: r.strongKey, weak: r.weakKey, pathExists: existsSync(r.path) }));
    const decision = decideClaim(identity, known);
    if (decision.kind !== 'claim' || autoClaim) return { rows, decision };
    const row = rows.find((r) => r.id === decision.id)!;
    return {
      rows,
      decision: {
        kind: 'ask',
        candidates: [{ id: row.id, path: row.path, via: decision.via, pathExists: false }],
        reason: `${row.path} is gone and this folder matches it, but automatic claims are off`,
      },
    };
  }

  private async resolveOnce(identity: WorkspaceIdentity, autoClaim: boolean, at: string): Promise<ResolvedWorkspace | null> {
    const { rows, decision } = await this.decide(identity, autoClaim);
    const keys = { strongKey: identity.strong, weakKey: identity.weak };

    if (decision.kind === 'same') {
      const id = decision.id;
      const row = rows.find((r) => r.id === id)!;
      await touchWorkspace(this.db, row.id, { lastSeenAt: at, ...keys });
      return { id: row.id, name: row.name, path: row.path, decision, claimId: null };
    }

    if (decision.kind === 'claim') {
      const claimed = decision;
      const row = rows.find((r) => r.id === claimed.id)!;
      // A name that was only the old folder's name follows the rename; one the person chose stays.
      const name = row.name === nameOf(row.path) ? nameOf(identity.path) : undefined;
      try {
        const claimId = await claimWorkspacePath(
          this.db,
          { id: row.id, fromPath: decision.from, toPath: identity.path, name, ...keys, lastSeenAt: at },
          { at, path: identity.path, workspaceId: row.id, candidates: [row.id], decision: 'claim', status: 'applied', reason: movedFromReason(decision.from, decision.via) },
        );
        if (claimId === null) return null;
        return { id: row.id, name: name ?? row.name, path: identity.path, decision, claimId };
      } catch (e) {
        if (isUniqueViolation(e)) return null;
        throw e;
      }
    }

    // ask and new both start a workspace of their own; ask also leaves the question for the person.
    const row: WorkspaceRow = { id: newId(), name: nameOf(identity.path), path: identity.path, ...keys, createdAt: at, lastSeenAt: at };
    const record =
      decision.kind === 'ask'
        ? { at, path: identity.path, workspaceId: row.id, candidates: decision.candidates.map((c) => c.id), decision: 'ask' as const, status: 'pending' as const, reason: decision.reason }
        : { at, path: identity.path, workspaceId: row.id, candidates: [], decision: 'new' as const, status: 'applied' as const, reason: decision.reason };
    const claimId = await createWorkspaceWithRecord(this.db, row, record);
    if (claimId === null) return null;
    return { id: row.id, name: row.name, path: row.path, decision, claimId };
  }

  /** The workspace at exactly this path, without creating anything (for read-only data). */
  async lookup(cwd: string): Promise<WorkspaceRow | null> {
    return (await getWorkspaceByPath(this.db, normaliseWorkspacePath(cwd))) ?? null;
  }

  async get(id: string): Promise<WorkspaceRow | null> {
    return (await getWorkspaceRow(this.db, id)) ?? null;
  }

  /**
   * The folders a workspace's sessions were recorded in: its folder, then the ones it lived in before
   * (pastPathsOf). [] for global and for an id with no folder.
   */
  async folders(id: string): Promise<string[]> {
    const row = id === GLOBAL_WORKSPACE ? null : await this.get(id);
    if (!row) return [];
    return [row.path, ...pastPathsOf(await this.claims({ limit: 1000 }), row.id, row.path)];
  }

  /**
   * Where memories of `id` belong now: `id` itself, or the workspace it was merged into (followed
   * through chains). A session that resolved its workspace before a merge keeps working in the
   * right one.
   */
  async redirect(id: string): Promise<string> {
    let current = id;
    const seen = new Set<string>([id]);
    for (let hops = 0; hops < 16; hops++) {
      if (current === GLOBAL_WORKSPACE || (await getWorkspaceRow(this.db, current))) return current;
      const next = await mergedInto(this.db, current);
      if (next === null || seen.has(next)) return current;
      seen.add(next);
      current = next;
    }
    return current;
  }

  /** Every workspace with its memory count: global first, then known ones by last use, then ids only memories know. */
  async list(): Promise<WorkspaceInfo[]> {
    const [rows, counts] = await Promise.all([listWorkspaceRows(this.db), memoryCountsByWorkspace(this.db)]);
    const out: WorkspaceInfo[] = [
      { id: GLOBAL_WORKSPACE, name: GLOBAL_WORKSPACE, path: '', kind: 'global', pathExists: false, strongKey: null, weakKey: '', createdAt: null, lastSeenAt: null, memories: counts.get(GLOBAL_WORKSPACE) ?? 0 },
    ];
    const known = new Set<string>([GLOBAL_WORKSPACE]);
    for (const r of rows) {
      known.add(r.id);
      out.push({ id: r.id, name: r.name, path: r.path, kind: 'known', pathExists: existsSync(r.path), strongKey: r.strongKey, weakKey: r.weakKey, createdAt: r.createdAt, lastSeenAt: r.lastSeenAt, memories: counts.get(r.id) ?? 0 });
    }
    for (const [id, n] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (!known.has(id)) out.push({ id, name: id, path: '', kind: 'orphan', pathExists: false, strongKey: null, weakKey: '', createdAt: null, lastSeenAt: null, memories: n });
    }
    return out;
  }

  /**
   * Refuses an id there is no workspace of (`unknown-workspace`, the message naming the ones there
   * are): a workspace a person names only filters what they see, so a typo answered quietly as a
   * workspace without memories. A workspace is global, a registered folder, or an id memories carry
   * (made on another machine). The common case, a registered one, costs one row read.
   */
  async requireKnown(id: string): Promise<void> {
    if (id === GLOBAL_WORKSPACE || (await getWorkspaceRow(this.db, id))) return;
    const workspaces = await this.list();
    if (workspaces.some((w) => w.id === id)) return;
    throw new EngramError('unknown-workspace', unknownWorkspaceText(id, workspaces), { workspace: id, known: workspaces.map((w) => w.id) });
  }

  async claims(options: { status?: ClaimStatus; limit?: number } = {}): Promise<WorkspaceClaim[]> {
    return (await listWorkspaceClaims(this.db, options)).map(claimOf);
  }

  async rename(id: string, name: string): Promise<WorkspaceRow> {
    const clean = typeof name === 'string' ? name.trim() : '';
    if (clean === '' || clean.length > 200) throw new EngramError('bad-input', 'a workspace name is 1-200 characters');
    if (!(await this.locked(() => renameWorkspace(this.db, id, clean)))) throw new EngramError('not-found', `no workspace "${id}"`);
    return (await getWorkspaceRow(this.db, id))!;
  }

  /**
   * The person's answer to a pending claim: the folder is `workspaceId`. The provisional workspace's
   * memories are rewritten to it, it takes the folder's path, and the provisional one is gone.
   * Accepting again with the same answer is a no-op; the provisional id itself means "keep it new".
   */
  async acceptClaim(claimId: number, workspaceId: string): Promise<WorkspaceClaim & { rewrite: RewriteReport }> {
    const claim = await this.requireClaim(claimId);
    if (claim.decision !== 'ask') throw new EngramError('bad-input', `claim ${claimId} is a ${claim.decision} record, not a question`);
    if (claim.status === 'applied' && claim.workspaceId === workspaceId) return { ...claimOf(claim), rewrite: { moved: [], skipped: [] } };
    if (claim.status !== 'pending') throw new EngramError('conflict', `claim ${claimId} was already ${claim.status}${claim.workspaceId ? ` (workspace ${claim.workspaceId})` : ''}`);
    const provisional = claim.workspaceId;
    if (provisional === null || workspaceId === provisional) {
      await this.locked(() => settleWorkspaceClaim(this.db, claimId, { status: 'applied', reason: `${claim.reason}; kept as a new workspace` }));
      return { ...claimOf((await getWorkspaceClaim(this.db, claimId))!), rewrite: { moved: [], skipped: [] } };
    }
    const target = await getWorkspaceRow(this.db, workspaceId);
    if (!target) throw new EngramError('not-found', `no workspace "${workspaceId}" to merge the claim into`);
    const rewrite = await this.rewriteAll(provisional, workspaceId);
    const identity = workspaceIdentity(claim.path);
    const at = this.now().toISOString();
    await this.locked(() =>
      finishWorkspaceMerge(
        this.db,
        { fromId: provisional, intoId: workspaceId, takePath: { path: claim.path, strongKey: identity.strong, weakKey: identity.weak, lastSeenAt: at } },
        { at, path: claim.path, workspaceId, candidates: [provisional], decision: 'merge', status: 'applied', reason: `claim ${claimId} accepted: ${claim.path} is ${workspaceId} (was at ${target.path})` },
        { claimId, reason: `${claim.reason}; accepted as ${workspaceId}` },
      ),
    );
    // Memories the provisional workspace got while the merge ran (a live session) follow too.
    const late = await this.rewriteAll(provisional, workspaceId);
    return { ...claimOf((await getWorkspaceClaim(this.db, claimId))!), rewrite: joinReports(rewrite, late) };
  }

  /** The person's answer "none of these": the folder stays the new workspace it was given. */
  async rejectClaim(claimId: number): Promise<WorkspaceClaim> {
    const claim = await this.requireClaim(claimId);
    if (claim.status === 'rejected') return claimOf(claim);
    if (claim.status !== 'pending') throw new EngramError('conflict', `claim ${claimId} was already ${claim.status}`);
    await this.locked(() => settleWorkspaceClaim(this.db, claimId, { status: 'rejected', reason: `${claim.reason}; rejected: a workspace of its own` }));
    return claimOf((await getWorkspaceClaim(this.db, claimId))!);
  }

  /** Moves one memory to a workspace (or global): its Meta line is rewritten, nothing else. */
  async moveMemory(idOrPath: string, workspaceId: string): Promise<MemorySummary> {
    await this.requireTarget(workspaceId);
    const doc = await this.engine.resolve(idOrPath);
    if (!doc) throw new EngramError('not-found', `no memory with id or path "${idOrPath}"`);
    if (doc.workspace === workspaceId) return (await this.engine.list({ includeArchived: true })).find((m) => m.docId === doc.id)!;
    const after = await this.engine.updateMeta(doc.id, { workspace: workspaceId });
    await this.locked(() =>
      insertWorkspaceClaim(this.db, {
        at: this.now().toISOString(),
        path: doc.path,
        workspaceId,
        candidates: [doc.workspace],
        decision: 'move',
        status: 'applied',
        reason: `memory "${doc.title}" moved from ${doc.workspace} to ${workspaceId}`,
      }),
    );
    return after;
  }

  /**
   * Every memory of `fromId` now belongs to `intoId`; the `fromId` row goes (never a file: only
   * Meta lines change). Running it again finishes an interrupted merge and otherwise does nothing.
   */
  async mergeWorkspaces(fromId: string, intoId: string): Promise<RewriteReport & { recorded: boolean }> {
    if (fromId === intoId) throw new EngramError('bad-input', 'a workspace cannot be merged into itself');
    if (fromId === GLOBAL_WORKSPACE) throw new EngramError('bad-input', 'global is not merged into a workspace: move its memories one by one');
    await this.requireTarget(intoId);
    const from = await getWorkspaceRow(this.db, fromId);
    const pending = await this.memoriesOf(fromId);
    if (!from && pending.length === 0) {
      if ((await mergedInto(this.db, fromId)) === intoId) return { moved: [], skipped: [], recorded: false };
      throw new EngramError('not-found', `no workspace "${fromId}" and no memory carries that id`);
    }
    const rewrite = await this.rewriteAll(fromId, intoId);
    await this.locked(() =>
      finishWorkspaceMerge(
        this.db,
        { fromId, intoId },
        { at: this.now().toISOString(), path: from?.path ?? '', workspaceId: intoId, candidates: [fromId], decision: 'merge', status: 'applied', reason: `${fromId}${from ? ` (${from.path})` : ''} merged into ${intoId}: ${rewrite.moved.length} memories` },
      ),
    );
    const late = await this.rewriteAll(fromId, intoId);
    return { ...joinReports(rewrite, late), recorded: true };
  }

  private async memoriesOf(workspaceId: string): Promise<MemorySummary[]> {
    return (await this.engine.list({ includeArchived: true })).filter((m) => m.workspace === workspaceId);
  }

  private async rewriteAll(fromId: string, intoId: string): Promise<RewriteReport> {
    const report: RewriteReport = { moved: [], skipped: [] };
    for (const m of await this.memoriesOf(fromId)) {
      if (m.readOnly) {
        report.skipped.push({ docId: m.docId, reason: 'read-only legacy memory' });
        continue;
      }
      try {
        const after = await this.engine.updateMeta(m.docId, { workspace: intoId });
        if (after.workspace === intoId) report.moved.push(m.docId);
        else report.skipped.push({ docId: m.docId, reason: `still in ${after.workspace} after the rewrite` });
      } catch (e) {
        report.skipped.push({ docId: m.docId, reason: e instanceof Error ? e.message : String(e) });
      }
    }
    return report;
  }

  private async requireTarget(workspaceId: string): Promise<void> {
    if (typeof workspaceId !== 'string' || workspaceId === '') throw new EngramError('bad-input', 'a workspace id is required');
    if (workspaceId !== GLOBAL_WORKSPACE && !(await getWorkspaceRow(this.db, workspaceId))) throw new EngramError('not-found', `no workspace "${workspaceId}"`);
  }

  private async requireClaim(claimId: number): Promise<WorkspaceClaimRow> {
    if (!Number.isInteger(claimId)) throw new EngramError('bad-input', 'a claim id is a whole number');
    const claim = await getWorkspaceClaim(this.db, claimId);
    if (!claim) throw new EngramError('not-found', `no claim record ${claimId}`);
    return claim;
  }
}

function claimOf(row: WorkspaceClaimRow): WorkspaceClaim {
  return { id: row.id, at: row.at, path: row.path, workspaceId: row.workspaceId, candidates: Array.isArray(row.candidates) ? row.candidates : [], decision: row.decision, status: row.status, reason: row.reason };
}

function joinReports(a: RewriteReport, b: RewriteReport): RewriteReport {
  return { moved: [...a.moved, ...b.moved], skipped: [...a.skipped.filter((s) => !b.moved.includes(s.docId)), ...b.skipped.filter((s) => !a.skipped.some((x) => x.docId === s.docId))] };
}
