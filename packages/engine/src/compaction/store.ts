// The compaction channel's rows in the engine's database (tables in packages/db/src/schema.ts,
// created by the 0001_compaction_memory migration). Plain SQL over the libSQL client, like the
// vector store: every function is one statement or one batch (a batch is a transaction).
import { createHash } from 'node:crypto';
import type { Database } from '@engram/db';
import type { DraftBlock, SessionScope, StoredBlock } from './types.ts';

type Client = Database['client'];
type Row = Record<string, unknown>;

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

const json = <T>(value: unknown, fallback: T): T => {
  if (typeof value !== 'string') return fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
};
const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function blockOf(row: Row): StoredBlock {
  return {
    id: String(row.id),
    workspace: String(row.workspace),
    sessionId: String(row.session_id),
    compactionId: String(row.compaction_id),
    ord: Number(row.ord),
    layer: row.layer as StoredBlock['layer'],
    kind: row.kind as StoredBlock['kind'],
    title: String(row.title),
    keywords: json<string[]>(row.keywords, []),
    modelKeywords: json<string[]>(row.model_keywords, []),
    body: String(row.body),
    fingerprint: String(row.fingerprint),
    seqStart: num(row.seq_start),
    seqEnd: num(row.seq_end),
    cutFrom: num(row.cut_from),
    createdAt: String(row.created_at),
    injectedAt: str(row.injected_at),
    deletedAt: str(row.deleted_at),
  };
}

function runOf(row: Row): RunRecord {
  return {
    workspace: String(row.workspace),
    sessionId: String(row.session_id),
    dedupeKey: String(row.dedupe_key),
    compactionId: str(row.compaction_id),
    rangeFingerprint: String(row.range_fingerprint),
    ord: Number(row.ord),
    seqStart: num(row.seq_start),
    seqEnd: num(row.seq_end),
    blocksAdded: Number(row.blocks_added),
    blocksSkipped: Number(row.blocks_skipped),
    overview: String(row.overview ?? ''),
    overviewTokens: Number(row.overview_tokens ?? 0),
    rulesText: String(row.rules_text ?? ''),
    report: json<Record<string, unknown>>(row.report, {}),
    createdAt: String(row.created_at),
  };
}

const scopeWhere = 'workspace = ? AND session_id = ?';
const scopeArgs = (scope: SessionScope) => [scope.workspace, scope.sessionId];

export class CompactionStore {
  constructor(private readonly client: Client) {}

  /**
   * Inserts the blocks of one compaction in one transaction; a fingerprint the session already has
   * is skipped (whether live or in the trash). Returns the ids of the rows actually added.
   */
  async insertBlocks(scope: SessionScope, compactionId: string, drafts: readonly (DraftBlock & { modelKeywords?: string[] })[], createdAt: string): Promise<{ added: string[]; skipped: number }> {
    if (drafts.length === 0) return { added: [], skipped: 0 };
    const first = await this.client.execute({ sql: `SELECT COALESCE(MAX(ord), 0) AS m FROM compaction_blocks WHERE ${scopeWhere}`, args: scopeArgs(scope) });
    let ord = Number(first.rows[0]?.m ?? 0);
    const statements = drafts.map((d) => ({
      sql: `INSERT OR IGNORE INTO compaction_blocks (id, workspace, session_id, compaction_id, ord, layer, kind, title, keywords, model_keywords, body, fingerprint, seq_start, seq_end, cut_from, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        blockId(scope, d.fingerprint),
        scope.workspace,
        scope.sessionId,
        compactionId,
        ++ord,
        d.layer,
        d.kind,
        d.title,
        JSON.stringify(d.keywords),
        JSON.stringify(d.modelKeywords ?? []),
        d.body,
        d.fingerprint,
        d.seqStart,
        d.seqEnd,
        d.cutFrom,
        createdAt,
      ],
    }));
    const results = await this.client.batch(statements, 'write');
    const added: string[] = [];
    results.forEach((r, i) => {
      if (r.rowsAffected > 0) added.push(blockId(scope, drafts[i]!.fingerprint));
    });
    return { added, skipped: drafts.length - added.length };
  }

  async setModelKeywords(id: string, keywords: readonly string[]): Promise<void> {
    await this.client.execute({ sql: 'UPDATE compaction_blocks SET model_keywords = ? WHERE id = ?', args: [JSON.stringify(keywords), id] });
  }

  async blocks(scope: SessionScope, options: { trashed?: boolean } = {}): Promise<StoredBlock[]> {
    const deleted = options.trashed ? 'deleted_at IS NOT NULL' : 'deleted_at IS NULL';
    const r = await this.client.execute({ sql: `SELECT * FROM compaction_blocks WHERE ${scopeWhere} AND ${deleted} ORDER BY ord`, args: scopeArgs(scope) });
    return r.rows.map((row) => blockOf(row as Row));
  }

  async blockCount(scope: SessionScope): Promise<number> {
    const r = await this.client.execute({ sql: `SELECT COUNT(*) AS n FROM compaction_blocks WHERE ${scopeWhere} AND deleted_at IS NULL`, args: scopeArgs(scope) });
    return Number(r.rows[0]?.n ?? 0);
  }

  async markInjected(ids: readonly string[], at: string): Promise<void> {
    if (ids.length === 0) return;
    await this.client.batch(
      ids.map((id) => ({ sql: 'UPDATE compaction_blocks SET injected_at = ? WHERE id = ? AND injected_at IS NULL', args: [at, id] })),
      'write',
    );
  }

  async hasRun(scope: SessionScope, dedupeKey: string): Promise<boolean> {
    const r = await this.client.execute({ sql: `SELECT 1 FROM compaction_runs WHERE ${scopeWhere} AND dedupe_key = ? LIMIT 1`, args: [...scopeArgs(scope), dedupeKey] });
    return r.rows.length > 0;
  }

  async runs(scope: SessionScope): Promise<RunRecord[]> {
    const r = await this.client.execute({ sql: `SELECT * FROM compaction_runs WHERE ${scopeWhere} ORDER BY ord`, args: scopeArgs(scope) });
    return r.rows.map((row) => runOf(row as Row));
  }

  async insertRun(run: RunRecord): Promise<void> {
    await this.client.execute({
      sql: `INSERT OR IGNORE INTO compaction_runs (id, workspace, session_id, dedupe_key, compaction_id, range_fingerprint, ord, seq_start, seq_end, blocks_added, blocks_skipped, overview, overview_tokens, rules_text, report, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      args: [
        runId(run, run.dedupeKey),
        run.workspace,
        run.sessionId,
        run.dedupeKey,
        run.compactionId,
        run.rangeFingerprint,
        run.ord,
        run.seqStart,
        run.seqEnd,
        run.blocksAdded,
        run.blocksSkipped,
        run.overview,
        run.overviewTokens,
        run.rulesText,
        JSON.stringify(run.report),
        run.createdAt,
      ],
    });
  }

  /** Moves blocks to the trash (all of the session's when ids is null); returns how many moved. */
  async trash(scope: SessionScope, ids: readonly string[] | null, at: string): Promise<number> {
    return this.update(scope, ids, 'deleted_at = ?', [at], 'deleted_at IS NULL');
  }

  async restore(scope: SessionScope, ids: readonly string[] | null): Promise<number> {
    return this.update(scope, ids, 'deleted_at = NULL', [], 'deleted_at IS NOT NULL');
  }

  /** Deletes blocks for good: the trashed ones (`onlyTrashed`) or any. */
  async purge(scope: SessionScope, ids: readonly string[] | null, onlyTrashed: boolean): Promise<number> {
    const filter = onlyTrashed ? ' AND deleted_at IS NOT NULL' : '';
    if (ids === null) {
      const r = await this.client.execute({ sql: `DELETE FROM compaction_blocks WHERE ${scopeWhere}${filter}`, args: scopeArgs(scope) });
      return r.rowsAffected;
    }
    if (ids.length === 0) return 0;
    const results = await this.client.batch(
      ids.map((id) => ({ sql: `DELETE FROM compaction_blocks WHERE ${scopeWhere} AND id = ?${filter}`, args: [...scopeArgs(scope), id] })),
      'write',
    );
    return results.reduce((n, r) => n + r.rowsAffected, 0);
  }

  private async update(scope: SessionScope, ids: readonly string[] | null, set: string, setArgs: unknown[], filter: string): Promise<number> {
    if (ids === null) {
      const r = await this.client.execute({ sql: `UPDATE compaction_blocks SET ${set} WHERE ${scopeWhere} AND ${filter}`, args: [...setArgs, ...scopeArgs(scope)] as never[] });
      return r.rowsAffected;
    }
    if (ids.length === 0) return 0;
    const results = await this.client.batch(
      ids.map((id) => ({ sql: `UPDATE compaction_blocks SET ${set} WHERE ${scopeWhere} AND id = ? AND ${filter}`, args: [...setArgs, ...scopeArgs(scope), id] as never[] })),
      'write',
    );
    return results.reduce((n, r) => n + r.rowsAffected, 0);
  }

  async audit(entry: AuditEntry): Promise<void> {
    await this.client.execute({
      sql: 'INSERT INTO compaction_audit (at, workspace, session_id, action, target, count, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
      args: [entry.at, entry.workspace, entry.sessionId, entry.action, entry.target, entry.count, entry.detail],
    });
  }

  async auditLog(scope: SessionScope | null, limit = 200): Promise<AuditEntry[]> {
    const r = scope
      ? await this.client.execute({ sql: `SELECT * FROM compaction_audit WHERE ${scopeWhere} ORDER BY id DESC LIMIT ?`, args: [...scopeArgs(scope), limit] })
      : await this.client.execute({ sql: 'SELECT * FROM compaction_audit ORDER BY id DESC LIMIT ?', args: [limit] });
    return r.rows.map((row) => ({
      id: Number(row.id),
      at: String(row.at),
      workspace: String(row.workspace),
      sessionId: String(row.session_id),
      action: row.action as AuditEntry['action'],
      target: String(row.target),
      count: Number(row.count),
      detail: String(row.detail),
    }));
  }

  /** Every session with stored compaction memory, newest activity first. */
  async sessions(): Promise<SessionSummary[]> {
    const r = await this.client.execute(`
      SELECT s.workspace, s.session_id,
        (SELECT COUNT(*) FROM compaction_blocks b WHERE b.workspace = s.workspace AND b.session_id = s.session_id AND b.deleted_at IS NULL) AS blocks,
        (SELECT COUNT(*) FROM compaction_blocks b WHERE b.workspace = s.workspace AND b.session_id = s.session_id AND b.deleted_at IS NOT NULL) AS trashed,
        (SELECT COUNT(*) FROM compaction_runs r WHERE r.workspace = s.workspace AND r.session_id = s.session_id) AS compactions,
        (SELECT MAX(created_at) FROM compaction_runs r WHERE r.workspace = s.workspace AND r.session_id = s.session_id) AS last_at
      FROM (SELECT DISTINCT workspace, session_id FROM compaction_blocks UNION SELECT DISTINCT workspace, session_id FROM compaction_runs) s
      ORDER BY last_at DESC`);
    return r.rows.map((row) => ({
      workspace: String(row.workspace),
      sessionId: String(row.session_id),
      blocks: Number(row.blocks),
      trashed: Number(row.trashed),
      compactions: Number(row.compactions),
      lastAt: str(row.last_at),
    }));
  }

  async cacheGet(key: string, notBefore: string): Promise<string | null> {
    const r = await this.client.execute({ sql: 'SELECT value FROM compaction_llm_cache WHERE key = ? AND created_at >= ?', args: [key, notBefore] });
    return r.rows.length > 0 ? String(r.rows[0]!.value) : null;
  }

  /** Stores an answer; keeps the newest `max` entries and drops the expired ones. */
  async cachePut(key: string, value: string, createdAt: string, notBefore: string, max: number): Promise<void> {
    await this.client.batch(
      [
        { sql: 'INSERT INTO compaction_llm_cache (key, value, created_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at', args: [key, value, createdAt] },
        { sql: 'DELETE FROM compaction_llm_cache WHERE created_at < ?', args: [notBefore] },
        { sql: 'DELETE FROM compaction_llm_cache WHERE key NOT IN (SELECT key FROM compaction_llm_cache ORDER BY created_at DESC LIMIT ?)', args: [max] },
      ],
      'write',
    );
  }

  async usage(day: string): Promise<{ calls: number; tokens: number }> {
    const r = await this.client.execute({ sql: 'SELECT calls, tokens FROM compaction_llm_usage WHERE day = ?', args: [day] });
    const row = r.rows[0];
    return { calls: Number(row?.calls ?? 0), tokens: Number(row?.tokens ?? 0) };
  }

  async addUsage(day: string, calls: number, tokens: number): Promise<void> {
    await this.client.execute({
      sql: 'INSERT INTO compaction_llm_usage (day, calls, tokens) VALUES (?, ?, ?) ON CONFLICT(day) DO UPDATE SET calls = calls + excluded.calls, tokens = tokens + excluded.tokens',
      args: [day, calls, tokens],
    });
  }
}
