// Pure conversion of a parsed document into the rows stored in libSQL and the lexical index.
import { createHash } from 'node:crypto';
import type { NewChunkRow, NewDocumentRow } from '@engram/db';
import type { LexicalEntry } from '../lexical/bm25.ts';
import { chunkText } from '../text/chunk.ts';
import { cjkGrams } from '../text/grams.ts';
import { canonicalKind } from '../diary/meta.ts';
import type { ParsedDocument, Tokenizer } from '../types.ts';

export const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');

export const joinTokens = (tokens: string[]): string => tokens.join(' ');
export const splitTokens = (s: string): string[] => (s.length === 0 ? [] : s.split(' '));

export interface DocumentRows {
  doc: NewDocumentRow;
  chunks: NewChunkRow[];
}

export function documentRows(
  parsed: ParsedDocument,
  docId: string,
  tokenizer: Tokenizer,
  chunk: { size: number; overlap: number },
  indexedAt: string,
): DocumentRows {
  // A document with an empty body still gets one chunk (its title and summary), so it is findable.
  const bodyChunks = chunkText(parsed.body, chunk);
  const pieces = bodyChunks.length > 0 ? bodyChunks : [{ ord: 0, text: parsed.summary || parsed.title, start: 0, end: 0 }];
  const chunks: NewChunkRow[] = pieces.map((c, i) => ({
    id: `${docId}#${i}`,
    docId,
    ord: i,
    text: c.text,
    tokens: joinTokens(tokenizer.tokenize(c.text)),
    start: c.start,
    end: c.end,
    fingerprint: sha1(c.text),
  }));
  const doc: NewDocumentRow = {
    id: docId,
    root: parsed.root,
    path: parsed.path,
    title: parsed.title,
    date: parsed.date,
    time: parsed.time,
    category: parsed.category,
    summary: parsed.summary,
    tags: parsed.tags,
    titleTokens: joinTokens(tokenizer.tokenize(parsed.title)),
    summaryTokens: joinTokens(tokenizer.tokenize(parsed.summary)),
    tagTokens: joinTokens(tokenizer.tokenize(parsed.tags.join(' '))),
    contentHash: sha1(parsed.raw),
    mtimeMs: parsed.mtimeMs,
    size: parsed.size,
    archived: parsed.archived,
    warnings: parsed.warnings,
    workspace: parsed.meta.workspace,
    sessionId: parsed.meta.sessionId,
    origin: parsed.meta.origin,
    pinned: parsed.meta.pinned,
    locked: parsed.meta.locked,
    supersedes: parsed.meta.supersedes,
    summarySource: parsed.summarySource,
    // The filter's form (aliases folded); the file keeps the word as written.
    kind: canonicalKind(parsed.meta.kind),
    goal: parsed.meta.goal,
    goalTokens: joinTokens(tokenizer.tokenize(parsed.meta.goal)),
    indexedAt,
  };
  return { doc, chunks };
}

export interface DocFields {
  titleTokens: string;
  summaryTokens: string;
  tagTokens: string;
  /** Absent in rows stored before the goal field (read as no goal). */
  goalTokens?: string;
}

/** A field's terms in the lexical index: its words, then their character grams (text/grams.ts). */
const fieldTerms = (joined: string): string[] => {
  const words = splitTokens(joined);
  return [...words, ...cjkGrams(words)];
};

export function lexicalEntry(chunk: { chunkId: string; docId: string; tokens: string }, doc: DocFields): LexicalEntry {
  return {
    chunkId: chunk.chunkId,
    docId: chunk.docId,
    fields: {
      title: fieldTerms(doc.titleTokens),
      summary: fieldTerms(doc.summaryTokens),
      tags: fieldTerms(doc.tagTokens),
      goal: fieldTerms(doc.goalTokens ?? ''),
      body: fieldTerms(chunk.tokens),
    },
  };
}

/** Order-independent hash of what is indexed, for the manifest. */
export function corpusHash(items: { id: string; contentHash: string }[]): string {
  return sha1(
    items
      .map((i) => `${i.id}:${i.contentHash}`)
      .sort()
      .join('\n'),
  );
}
