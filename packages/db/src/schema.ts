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
