import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** One memory. The diary file is the source of truth; this row is a rebuildable projection of it. */
export const documents = sqliteTable(
  'documents',
  {
    id: text('id').primaryKey(),
    /** Which corpus root the file lives under: the writable diary root or the read-only legacy root. */
    root: text('root', { enum: ['diary', 'legacy'] }).notNull(),
    /** Path relative to its root, with forward slashes. */
    path: text('path').notNull(),
    title: text('title').notNull(),
    /** Local calendar date YYYY-MM-DD (from the file name, else mtime). */
    date: text('date').notNull(),
    /** HH:MM anchor from the first line, if any. */
    time: text('time'),
    category: text('category').notNull().default(''),
    summary: text('summary').notNull().default(''),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    titleTokens: text('title_tokens').notNull().default(''),
    summaryTokens: text('summary_tokens').notNull().default(''),
    tagTokens: text('tag_tokens').notNull().default(''),
    contentHash: text('content_hash').notNull(),
    mtimeMs: real('mtime_ms').notNull(),
    size: integer('size').notNull(),
    archived: integer('archived', { mode: 'boolean' }).notNull().default(false),
    warnings: text('warnings', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    workspace: text('workspace').notNull().default('global'),
    sessionId: text('session_id'),
    /** Who wrote it: agent (a tool call), console, cli, import (a past session), or '' (unknown / hand-written file). */
    origin: text('origin').notNull().default(''),
    pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),
    /** A locked memory cannot be forgotten or edited until unlocked. */
    locked: integer('locked', { mode: 'boolean' }).notNull().default(false),
    /** Doc ids this memory replaces (they stay, ranked down). */
    supersedes: text('supersedes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /** manual = written with the memory; auto = the summary queue's model; rule = rule-based fallback; none = no summary line. */
    summarySource: text('summary_source').notNull().default('none'),
    /** What sort of memory (fact / pref / lesson / task / proj, or the text written when unknown); '' = not said. */
    kind: text('kind').notNull().default(''),
    /** What the memory (a task) is meant to achieve: one free-text line, '' = none. */
    goal: text('goal').notNull().default(''),
    goalTokens: text('goal_tokens').notNull().default(''),
    indexedAt: text('indexed_at').notNull(),
  },
  (t) => [uniqueIndex('documents_root_path').on(t.root, t.path), index('documents_date').on(t.date), index('documents_workspace').on(t.workspace), index('documents_session').on(t.sessionId)],
);

/** A slice of a document's body, the unit of lexical and semantic scoring. */
export const chunks = sqliteTable(
  'chunks',
  {
    id: text('id').primaryKey(),
    docId: text('doc_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    ord: integer('ord').notNull(),
    text: text('text').notNull(),
    /** Space-joined tokens from the tokenizer recorded in the manifest. */
    tokens: text('tokens').notNull(),
    start: integer('start').notNull(),
    end: integer('end').notNull(),
    /** sha1 of the text: a vector is reusable while the fingerprint is unchanged. */
    fingerprint: text('fingerprint').notNull(),
  },
  (t) => [index('chunks_doc').on(t.docId), index('chunks_fingerprint').on(t.fingerprint)],
);

/** What the index was built with. Counts are never read from here for display. */
export const indexManifest = sqliteTable('index_manifest', {
  id: text('id').primaryKey(),
  engineVersion: text('engine_version').notNull(),
  tokenizer: text('tokenizer').notNull(),
  chunkSize: integer('chunk_size').notNull(),
  chunkOverlap: integer('chunk_overlap').notNull(),
  corpusHash: text('corpus_hash').notNull(),
  builtAt: text('built_at').notNull(),
  embedding: text('embedding', { mode: 'json' }).$type<Record<string, unknown> | null>(),
});

/** Settings saved by the console, deep-merged over the deploy base. */
export const settingsOverlay = sqliteTable('settings_overlay', {
  id: text('id').primaryKey(),
  json: text('json', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  updatedAt: text('updated_at').notNull(),
});

/** Small key/value facts about this data directory (install token hash, time zone, schema writer). */
export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * Cross-compaction memory: blocks stored when a session's history was compacted, per workspace and
 * session. L1 = sections of the host's summary, L2 = the folded dialogue and read-type tool results.
 * `deleted_at` set = in the trash.
 */
export const compactionBlocks = sqliteTable(
  'compaction_blocks',
  {
    id: text('id').primaryKey(),
    workspace: text('workspace').notNull(),
    sessionId: text('session_id').notNull(),
    compactionId: text('compaction_id').notNull(),
    ord: integer('ord').notNull(),
    layer: text('layer', { enum: ['L1', 'L2'] }).notNull(),
    kind: text('kind', { enum: ['summary', 'dialogue', 'tool'] }).notNull(),
    title: text('title').notNull(),
    keywords: text('keywords', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    modelKeywords: text('model_keywords', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    body: text('body').notNull(),
    /** 16 hex of sha1 over title + body: a block is stored and injected once per session. */
    fingerprint: text('fingerprint').notNull(),
    seqStart: integer('seq_start'),
    seqEnd: integer('seq_end'),
    /** Length of the source before a recorded cut (long tool results); null = whole. */
    cutFrom: integer('cut_from'),
    createdAt: text('created_at').notNull(),
    injectedAt: text('injected_at'),
    deletedAt: text('deleted_at'),
  },
  (t) => [uniqueIndex('compaction_blocks_fingerprint').on(t.workspace, t.sessionId, t.fingerprint), index('compaction_blocks_session').on(t.workspace, t.sessionId)],
);

/** One row per compaction ingested, written after its blocks: the de-duplication record. */
export const compactionRuns = sqliteTable(
  'compaction_runs',
  {
    id: text('id').primaryKey(),
    workspace: text('workspace').notNull(),
    sessionId: text('session_id').notNull(),
    /** The compactionId, or `range:<fingerprint of the shadowed range>` when the host sent none. */
    dedupeKey: text('dedupe_key').notNull(),
    compactionId: text('compaction_id'),
    rangeFingerprint: text('range_fingerprint').notNull(),
    ord: integer('ord').notNull(),
    seqStart: integer('seq_start'),
    seqEnd: integer('seq_end'),
    blocksAdded: integer('blocks_added').notNull(),
    blocksSkipped: integer('blocks_skipped').notNull(),
    /** The overview and rules texts of the window this compaction opened (stable for the window). */
    overview: text('overview').notNull().default(''),
    overviewTokens: integer('overview_tokens').notNull().default(0),
    rulesText: text('rules_text').notNull().default(''),
    report: text('report', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('compaction_runs_key').on(t.workspace, t.sessionId, t.dedupeKey), index('compaction_runs_session').on(t.workspace, t.sessionId)],
);

/** Deletes, restores and purges of compaction memory. */
export const compactionAudit = sqliteTable(
  'compaction_audit',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: text('at').notNull(),
    workspace: text('workspace').notNull(),
    sessionId: text('session_id').notNull(),
    action: text('action', { enum: ['trash', 'restore', 'purge', 'delete'] }).notNull(),
    /** 'session' or a block id. */
    target: text('target').notNull(),
    count: integer('count').notNull(),
    detail: text('detail').notNull().default(''),
  },
  (t) => [index('compaction_audit_session').on(t.workspace, t.sessionId)],
);

/** Optional model assistance: cached answers (30 days) and calls per day (for the daily cap). */
export const compactionLlmCache = sqliteTable('compaction_llm_cache', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: text('created_at').notNull(),
});

export const compactionLlmUsage = sqliteTable('compaction_llm_usage', {
  day: text('day').primaryKey(),
  calls: integer('calls').notNull(),
  tokens: integer('tokens').notNull(),
});

/**
 * A workspace: the folder a session works in, known by an id that survives a rename. `strongKey` (git
 * remote + package name) and `weakKey` (sorted top-level entry names) are what a claim compares.
 */
export const workspaces = sqliteTable(
  'workspaces',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** The path it was last seen at. */
    path: text('path').notNull(),
    strongKey: text('strong_key'),
    weakKey: text('weak_key').notNull().default(''),
    createdAt: text('created_at').notNull(),
    lastSeenAt: text('last_seen_at').notNull(),
  },
  (t) => [uniqueIndex('workspaces_path').on(t.path)],
);

/** Every claim decision: automatic ones applied, ambiguous ones waiting for the person in the console. */
export const workspaceClaims = sqliteTable(
  'workspace_claims',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: text('at').notNull(),
    /** The new path that asked. */
    path: text('path').notNull(),
    /** The workspace it was (or may be) given; null = a new workspace was made. */
    workspaceId: text('workspace_id'),
    /** JSON list of candidate workspace ids when the decision was to ask. */
    candidates: text('candidates', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    decision: text('decision', { enum: ['claim', 'ask', 'new', 'manual', 'move', 'merge'] }).notNull(),
    status: text('status', { enum: ['applied', 'pending', 'rejected'] }).notNull(),
    reason: text('reason').notNull().default(''),
  },
  (t) => [index('workspace_claims_status').on(t.status)],
);

/** Messages between sessions: addressed (a session id prefix or a workspace) or public (recipient ''). */
export const wallMessages = sqliteTable(
  'wall_messages',
  {
    id: text('id').primaryKey(),
    at: text('at').notNull(),
    fromSession: text('from_session').notNull(),
    fromWorkspace: text('from_workspace').notNull(),
    recipient: text('recipient').notNull().default(''),
    text: text('text').notNull(),
  },
  (t) => [index('wall_messages_at').on(t.at)],
);

/** Where each session's brief last synced up to. */
export const syncCursors = sqliteTable('sync_cursors', {
  sessionId: text('session_id').primaryKey(),
  syncedAt: text('synced_at').notNull(),
});

/** The background summary queue: one row per memory that needed a summary. */
export const summaryJobs = sqliteTable(
  'summary_jobs',
  {
    docId: text('doc_id').primaryKey(),
    path: text('path').notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /** What produced the summary now in the file: the model or the rule-based fallback. */
    source: text('source', { enum: ['auto', 'rule'] }),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [index('summary_jobs_status').on(t.status)],
);

/** Past DSH sessions imported as memories: re-importing updates the same memory. */
export const sessionImports = sqliteTable('session_imports', {
  sessionId: text('session_id').primaryKey(),
  workspace: text('workspace').notNull(),
  /** Diary path (relative) of the memory the import wrote. */
  path: text('path').notNull(),
  /** sha1 of the imported content: unchanged logs are skipped. */
  sourceHash: text('source_hash').notNull(),
  turns: integer('turns').notNull(),
  importedAt: text('imported_at').notNull(),
});
