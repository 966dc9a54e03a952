// The Library's word search: the engine's own keyword channel (the query cut by the same tokenizer,
// jieba for Chinese; BM25 over title, summary, body and tags, as recall ranks), one entry per memory
// (its best passage), with the words it matched so the page can mark them; then the memories that
// hold a Chinese query word only inside a longer word, found by their text.
import { documentsContaining } from '@engram/db';
import type { Engine } from '../engine.ts';
import { hasCjkChar } from '../text/scripts.ts';

export interface MemorySearchHit {
  docId: string;
  /** 1-based, the engine's order. */
  rank: number;
  score: number;
  /** Query words found in the memory, each once, with the fields they were found in. */
  matched: { token: string; fields: string[] }[];
}

export interface MemorySearch {
  /** The query as the tokenizer cut it (what was searched for). */
  terms: string[];
  hits: MemorySearchHit[];
}

/** Passages looked at for one search: enough for a few thousand memories' best passages. */
const PASSAGES = 2_000;

export async function searchMemories(engine: Pick<Engine, 'live' | 'db' | 'tokenizer'>, query: string, limit = 500): Promise<MemorySearch> {
  const terms = [...new Set(engine.tokenizer.tokenize(query.slice(0, 2_000)))];
  if (terms.length === 0) return { terms, hits: [] };
  await engine.live.refreshIfStale(engine.db);
  const passages = engine.live.lexical.search(terms, Math.max(PASSAGES, limit));
  const byDoc = new Map<string, MemorySearchHit>();
  for (const p of passages) {
    let hit = byDoc.get(p.docId);
    if (!hit) {
      if (byDoc.size >= limit) continue;
      byDoc.set(p.docId, (hit = { docId: p.docId, rank: byDoc.size + 1, score: p.score, matched: [] }));
    }
    // Other passages of the memory add the words only they matched.
    for (const m of p.matched) {
      const known = hit.matched.find((k) => k.token === m.token);
      if (known) known.fields = [...new Set([...known.fields, ...m.fields])];
      else hit.matched.push({ token: m.token, fields: [...m.fields] });
    }
  }
  // A Chinese word the tokenizer kept inside a longer one (长城 in 万里长城, 足球 in 足球队) is no term
  // of those memories: they come after the ones holding it as a word, found by the text itself.
  for (const term of terms) {
    if (byDoc.size >= limit || !hasCjkChar(term) || [...term].length < 2) continue;
    for (const docId of await documentsContaining(engine.db, term, limit)) {
      if (!engine.live.doc(docId)) continue; // one row looked up: `docs` would decode every row
      const hit = byDoc.get(docId);
      if (hit) {
        if (!hit.matched.some((m) => m.token === term)) hit.matched.push({ token: term, fields: ['body'] });
        continue;
      }
      if (byDoc.size >= limit) break;
      byDoc.set(docId, { docId, rank: byDoc.size + 1, score: 0, matched: [{ token: term, fields: ['body'] }] });
    }
  }
  return { terms, hits: [...byDoc.values()] };
}
