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
    indexedAt: text('indexed_at').notNull(),
  },
  (t) => [uniqueIndex('documents_root_path').on(t.root, t.path), index('documents_date').on(t.date)],
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
