// Stage 3½ — duplicates: near-duplicate groups among the channels' candidates (recall/near-duplicates.ts)
// and the gate rarity of each query word (recall/term-rarity.ts): the store's count with each group
// counted once, blended with the general-language table. The lexical matches carry the gate rarity
// from here on (fuse, gate and the hybrid evidence read it); a word that is rare once copies count
// once becomes distinctive. Collapse later shows each group once, with how often it was noted.
import { languageIdfTable, languageTableOf, UNKNOWN_WORD_IDF } from '../background-idf.ts';
import { isStopWord } from '../../text/stopwords.ts';
import { queryFacts } from '../explain.ts';
import { nearDuplicateGroups } from '../near-duplicates.ts';
import type { RecallStage } from '../run.ts';
import { isAskingWord, isBoundaryPair, isSingleCjk } from '../scoring.ts';
import { redundantCopies, termRarity, type TermRarity } from '../term-rarity.ts';
import type { QueryToken, TermExplanation } from '../types.ts';

const round3 = (n: number) => Math.round(n * 1000) / 1000;

// Off: on the growth benchmark's tuning half (20,000 notes, lexical) it bought R@5 0.916 → 0.923 and
// answerable-but-nothing 3.2 → 1.9 % for out-of-corpus → nothing 77.3 → 70.5 %. Evaluation switch:
// ENGRAM_EVAL_UNKNOWN_RARE=1 (bench/growth.ts).
const UNKNOWN_WORDS_RARE = process.env.ENGRAM_EVAL_UNKNOWN_RARE === '1';

/**
 * The general-language IDF of each query word, for the gate rarity: the table's value; null (the
 * store's counts alone decide) for a word the table does not know — with UNKNOWN_WORDS_RARE, a Chinese
 * word of two or more characters the table does not know counts as UNKNOWN_WORD_IDF instead (a name,
 * a term of art), except a pair made across a word boundary (晏是) or a word that asks (哪一年).
 */
export function languageRarity(tokens: QueryToken[], table: Map<string, number> | null): (token: string) => number | null {
  const singles = new Set(tokens.filter((t) => isSingleCjk(t.token)).map((t) => t.token));
  return (token) => {
    if (!table) return null;
    const known = table.get(token);
    if (known !== undefined) return known;
    if (!UNKNOWN_WORDS_RARE || [...token].length < 2 || !/^[\u3400-\u9fff\uf900-\ufaff]+$/u.test(token)) return null;
    if (isAskingWord(token) || isBoundaryPair(token, singles, isStopWord)) return null;
    return UNKNOWN_WORD_IDF;
  };
}

/** Each query word's coverage weight with its source, and its gate rarity with its sources (the explanation's `terms`). */
export function termExplanations(tokens: QueryToken[], weights: Map<string, number>, table: Map<string, number> | null, rarity: Map<string, TermRarity>, talkWords: ReadonlySet<string>): TermExplanation[] {
  return tokens.map((t) => {
    const w = weights.get(t.token);
    const weightSource: TermExplanation['weightSource'] = w === undefined ? 'none' : !table ? 'store' : table.has(t.token) ? 'language' : 'unknown-word';
    const r = rarity.get(t.token);
    return {
      token: t.token,
      weight: round3(w ?? 0),
      weightSource,
      ...(weightSource === 'language' ? { languageTable: languageTableOf(t.token) } : {}),
      rarity: r ? { idf: round3(r.idf), source: r.source, storeIdf: round3(r.storeIdf), storeDf: r.storeDf, groupedDf: r.groupedDf, languageIdf: r.languageIdf === null ? null : round3(r.languageIdf) } : null,
      ...(talkWords.has(t.token) ? { talk: true as const } : {}),
    };
  });
}

export const duplicates: RecallStage = {
  name: 'duplicates',
  async run(candidates, run) {
    const { deps, cfg } = run;
    const ids = [...new Set([...run.lexicalHits.map((h) => h.chunkId), ...run.semanticHits.map((h) => h.chunkId)])];
    // Every candidate's text, one alone too: the phrase evidence and the query gates read it (fuse).
    const texts = ids.length > 0 ? await deps.chunkTexts(ids) : new Map<string, string>();
    for (const [id, text] of texts) run.texts.set(id, text);
    if (ids.length > 1) {
      // Layers (a workspace, global) are looked up only for grouped candidates: a row read per
      // candidate would decode most of a one-shot process's stored rows.
      const layerOf = (id: string) => {
        const docId = deps.docOfChunk(id);
        return docId === undefined ? undefined : deps.doc(docId)?.workspace;
      };
      const grouped = nearDuplicateGroups(ids.flatMap((id) => (texts.has(id) ? [{ id, text: texts.get(id) as string }] : [])));
      run.duplicateGroups = grouped.flatMap((g) => nearDuplicateGroups(g.members.map((id) => ({ id, text: texts.get(id) as string, layer: layerOf(id) }))).map((sub) => sub.members));
    }
    const matchedBy = new Map(run.lexicalHits.map((h) => [h.chunkId, new Set(h.matched.map((m) => m.token))]));
    const holds = (id: string, token: string) => matchedBy.get(id)?.has(token) ?? false;
    const table = languageIdfTable();
    const size = deps.lexical.size;
    const analysis = run.analysis;
    const languageIdf = languageRarity(analysis.tokens, table);
    run.rarity = new Map(
      analysis.tokens.map((t) => [
        t.token,
        termRarity({ token: t.token, storeIdf: t.idf, chunkCount: size, redundant: redundantCopies(t.token, run.duplicateGroups, holds), languageIdf: languageIdf(t.token) }, UNKNOWN_WORD_IDF),
      ]),
    );
    for (const h of run.lexicalHits)
      h.matched = h.matched.map((m) => {
        const r = run.rarity.get(m.token);
        return r ? { ...m, idf: r.idf, storeIdf: m.idf, idfSource: r.source } : m;
      });
    // Copies counted once can make a word rare enough to be distinctive; never the other way round.
    let added = false;
    for (const t of analysis.tokens) {
      const r = run.rarity.get(t.token);
      if (t.distinctive || !r || [...t.token].length < cfg.minTokenLen || !(r.idf >= analysis.minIdf) || !analysis.idfAvailable) continue;
      t.distinctive = true;
      analysis.distinctive.add(t.token);
      added = true;
    }
    const grouped = run.duplicateGroups.reduce((n, g) => n + g.length, 0);
    const terms = termExplanations(analysis.tokens, analysis.weights, table, run.rarity, new Set(analysis.talkWords));
    return {
      candidates,
      record: {
        kept: candidates.length,
        dropped: 0,
        listed: false,
        explain: {
          terms,
          ...(added ? { query: queryFacts(analysis) } : {}),
        },
        ...(grouped > 0 ? { note: `${run.duplicateGroups.length} near-duplicate groups of ${grouped} candidates` } : {}),
      },
    };
  },
};
