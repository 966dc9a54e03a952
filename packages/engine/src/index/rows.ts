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
  /** The words the rows hold joined, as arrays (not stored): a build adds them to the lexical index as they are. */
  words: { title: string[]; summary: string[]; tags: string[]; goal: string[]; bodies: string[][] };
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
  const bodies = pieces.map((c) => tokenizer.tokenize(c.text));
  const chunks: NewChunkRow[] = pieces.map((c, i) => ({
    id: `${docId}#${i}`,
    docId,
    ord: i,
    text: c.text,
    tokens: joinTokens(bodies[i]!),
    start: c.start,
    end: c.end,
    fingerprint: sha1(c.text),
  }));
  const words = {
    title: tokenizer.tokenize(parsed.title),
    summary: tokenizer.tokenize(parsed.summary),
    tags: tokenizer.tokenize(parsed.tags.join(' ')),
    goal: tokenizer.tokenize(parsed.meta.goal),
    bodies,
  };
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
    titleTokens: joinTokens(words.title),
    summaryTokens: joinTokens(words.summary),
    tagTokens: joinTokens(words.tags),
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
    goalTokens: joinTokens(words.goal),
    indexedAt,
  };
  return { doc, chunks, words };
}

export interface DocFields {
  titleTokens: string;
  summaryTokens: string;
  tagTokens: string;
  /** Absent in rows stored before the goal field (read as no goal). */
  goalTokens?: string;
}

/** A field's terms in the lexical index: its words, then their character grams (text/grams.ts). */
const fieldTerms = (words: string[]): string[] => {
  const grams = cjkGrams(words);
  return grams.length === 0 ? words : words.concat(grams);
};

type HeadTerms = Omit<LexicalEntry['fields'], 'body'>;

/** The terms of a document's own fields, which every one of its chunks carries. */
const headTerms = (w: { title: string[]; summary: string[]; tags: string[]; goal: string[] }): HeadTerms => ({
  title: fieldTerms(w.title),
  summary: fieldTerms(w.summary),
  tags: fieldTerms(w.tags),
  goal: fieldTerms(w.goal),
});

/** A stored chunk's entry in the lexical index, from the words its rows hold joined. */
export function lexicalEntry(chunk: { chunkId: string; docId: string; tokens: string }, doc: DocFields): LexicalEntry {
  const head = headTerms({ title: splitTokens(doc.titleTokens), summary: splitTokens(doc.summaryTokens), tags: splitTokens(doc.tagTokens), goal: splitTokens(doc.goalTokens ?? '') });
  return { chunkId: chunk.chunkId, docId: chunk.docId, fields: { ...head, body: fieldTerms(splitTokens(chunk.tokens)) } };
}

/**
 * The entries of freshly built rows, from their words as arrays (the same terms lexicalEntry reads
 * back from the stored rows), the document's own fields read once for all its chunks.
 */
export function lexicalEntriesOf(rows: DocumentRows): LexicalEntry[] {
  const head = headTerms(rows.words);
  return rows.chunks.map((c, i) => ({ chunkId: c.id, docId: c.docId, fields: { ...head, body: fieldTerms(rows.words.bodies[i]!) } }));
}

/**
 * Order-independent hash of what is indexed, for the manifest: SHA-1 of the `id:contentHash` lines,
 * sorted, joined by newlines. Hashed line by line in that order rather than joined: at the end of a
 * 50,000-note pass, at its memory peak, the lines and their join were ~9 MB.
 */
export function corpusHash(items: readonly { id: string; contentHash: string }[]): string {
  const hash = createHash('sha1');
  [...items].sort(compareLines).forEach((item, i) => hash.update(`${i === 0 ? '' : '\n'}${item.id}:${item.contentHash}`));
  return hash.digest('hex');
}

/** How the lines `a.id:a.contentHash` and `b.id:b.contentHash` sort, without making them when the ids decide. */
function compareLines(a: { id: string; contentHash: string }, b: { id: string; contentHash: string }): number {
  let x: string, y: string;
  if (a.id === b.id) [x, y] = [a.contentHash, b.contentHash];
  else if (!a.id.startsWith(b.id) && !b.id.startsWith(a.id)) [x, y] = [a.id, b.id];
  else [x, y] = [`${a.id}:${a.contentHash}`, `${b.id}:${b.contentHash}`]; // one id begins the other: the ':' takes part
  return x < y ? -1 : x > y ? 1 : 0;
}
