// The compaction channel's rows in the engine's database, in the channel's own shapes. The queries
// live in @engram/db (queries-compaction.ts, tables in its schema); this class derives the stable
// block and run ids and keeps one object per database for the channel's modules to share.
import { createHash } from 'node:crypto';
import {
  addCompactionUsage,
  compactionAuditLog,
  compactionBlockCount,
  compactionBlocksOf,
  compactionCacheGet,
  compactionCachePut,
  compactionRunsOf,
  compactionSessions,
  compactionUsage,
  hasCompactionRun,
  insertCompactionAudit,
  insertCompactionBlocks,
  insertCompactionRun,
  markCompactionBlocksInjected,
  purgeCompactionBlocks,
  purgeCompactionTrashBefore,
  expiredCompactionTrash,
  restoreCompactionBlocks,
  setCompactionModelKeywords,
  trashCompactionBlocks,
  type EngramDb,
} from '@engram/db';
import type { DraftBlock, SessionScope, StoredBlock } from './types.ts';

export interface RunRecord {
  workspace: string;
  sessionId: string;
  dedupeKey: string;
  compactionId: string | null;
  rangeFingerprint: string;
  ord: number;
  seqStart: number | null;
  seqEnd: number | null;
  blocksAdded: number;
  blocksSkipped: number;
  overview: string;
  overviewTokens: number;
  rulesText: string;
  report: Record<string, unknown>;
  createdAt: string;
}

export interface AuditEntry {
  id?: number;
  at: string;
  workspace: string;
  sessionId: string;
  action: 'trash' | 'restore' | 'purge' | 'delete';
  target: string;
  count: number;
  detail: string;
}

export interface SessionSummary extends SessionScope {
  blocks: number;
  trashed: number;
  compactions: number;
  lastAt: string | null;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
export const blockId = (scope: SessionScope, fingerprint: string): string => sha1(`${scope.workspace}\u0000${scope.sessionId}\u0000${fingerprint}`).slice(0, 24);
const runId = (scope: SessionScope, key: string): string => sha1(`run\u0000${scope.workspace}\u0000${scope.sessionId}\u0000${key}`).slice(0, 24);

export class CompactionStore {
  constructor(private readonly db: EngramDb) {}

  /**
   * Inserts the blocks of one compaction in one transaction; a fingerprint the session already has
   * is skipped (whether live or in the trash). Returns the ids of the rows actually added.
   */
  async insertBlocks(scope: SessionScope, compactionId: string, drafts: readonly (DraftBlock & { modelKeywords?: string[] })[], createdAt: string): Promise<{ added: string[]; skipped: number }> {
    if (drafts.length === 0) return { added: [], skipped: 0 };
    const rows = drafts.map((d) => ({
      id: blockId(scope, d.fingerprint),
      layer: d.layer,
      kind: d.kind,
      title: d.title,
      keywords: d.keywords,
      modelKeywords: d.modelKeywords ?? [],
      body: d.body,
      fingerprint: d.fingerprint,
      seqStart: d.seqStart,
      seqEnd: d.seqEnd,
      cutFrom: d.cutFrom,
    }));
    const added = await insertCompactionBlocks(this.db, scope, compactionId, rows, createdAt);
    return { added, skipped: drafts.length - added.length };
  }

  async setModelKeywords(id: string, keywords: readonly string[]): Promise<void> {
    await setCompactionModelKeywords(this.db, id, keywords);
  }

  async blocks(scope: SessionScope, options: { trashed?: boolean } = {}): Promise<StoredBlock[]> {
    return compactionBlocksOf(this.db, scope, options);
  }

  async blockCount(scope: SessionScope): Promise<number> {
    return compactionBlockCount(this.db, scope);
  }

  async markInjected(ids: readonly string[], at: string): Promise<void> {
    await markCompactionBlocksInjected(this.db, ids, at);
  }

  async hasRun(scope: SessionScope, dedupeKey: string): Promise<boolean> {
    return hasCompactionRun(this.db, scope, dedupeKey);
  }

  async runs(scope: SessionScope): Promise<RunRecord[]> {
    return compactionRunsOf(this.db, scope);
  }

  async insertRun(run: RunRecord): Promise<void> {
    await insertCompactionRun(this.db, { id: runId(run, run.dedupeKey), ...run });
  }

  /** Moves blocks to the trash (all of the session's when ids is null); returns how many moved. */
  async trash(scope: SessionScope, ids: readonly string[] | null, at: string): Promise<number> {
    return trashCompactionBlocks(this.db, scope, ids, at);
  }

  async restore(scope: SessionScope, ids: readonly string[] | null): Promise<number> {
    return restoreCompactionBlocks(this.db, scope, ids);
  }

  /** Deletes blocks for good: the trashed ones (`onlyTrashed`) or any. */
  async purge(scope: SessionScope, ids: readonly string[] | null, onlyTrashed: boolean): Promise<number> {
    return purgeCompactionBlocks(this.db, scope, ids, onlyTrashed);
  }

  /** Sessions with blocks trashed before `before`: how many, and when they were trashed. */
  async expiredTrash(before: string): Promise<(SessionScope & { count: number; trashedAt: string[] })[]> {
    return expiredCompactionTrash(this.db, before);
  }

  /** Deletes for good the session's blocks trashed before `before`. */
  async purgeTrashBefore(scope: SessionScope, before: string): Promise<number> {
    return purgeCompactionTrashBefore(this.db, scope, before);
  }

  async audit(entry: AuditEntry): Promise<void> {
    await insertCompactionAudit(this.db, { at: entry.at, workspace: entry.workspace, sessionId: entry.sessionId, action: entry.action, target: entry.target, count: entry.count, detail: entry.detail });
  }

  async auditLog(scope: SessionScope | null, limit = 200): Promise<AuditEntry[]> {
    return compactionAuditLog(this.db, scope, limit);
  }

  /** Every session with stored compaction memory, newest activity first. */
  async sessions(): Promise<SessionSummary[]> {
    return compactionSessions(this.db);
  }

  async cacheGet(key: string, notBefore: string): Promise<string | null> {
    return compactionCacheGet(this.db, key, notBefore);
  }

  /** Stores an answer; keeps the newest `max` entries and drops the expired ones. */
  async cachePut(key: string, value: string, createdAt: string, notBefore: string, max: number): Promise<void> {
    await compactionCachePut(this.db, { key, value, createdAt }, notBefore, max);
  }

  async usage(day: string): Promise<{ calls: number; tokens: number }> {
    return compactionUsage(this.db, day);
  }

  async addUsage(day: string, calls: number, tokens: number): Promise<void> {
    await addCompactionUsage(this.db, day, calls, tokens);
  }
}
