// Stage 5 — gate: rather nothing than noise. A query without a distinctive term, or one that says too
// little (general-language information below minQueryInformation), injects nothing; otherwise a query
// gate judges the candidates together (the hybrid one when the model searched, lexical recall's own
// when only the words did) and each candidate faces the gates of recall/scoring.ts (distinctive term,
// coverage, specificity, semantic minimum / required, hybrid). Every removal is recorded with its gate
// and the evidence it had.
import type { RecallStage } from '../run.ts';
import { lexicalQueryGateFor, queryGateFor } from '../hybrid-gate.ts';
import { applyGates, statementSupportVerdict, titleNamedBy, type QueryGateVerdict } from '../scoring.ts';
import { asksInChinese, asksInEnglish, opensWithQuestionWord } from '../../text/talk-words.ts';
import type { GateRemoval, NamedKeepExplanation, SilenceExplanation } from '../types.ts';

/** When the gates left nothing of a query that had candidates: which rule silenced it. */
export function silenceOf(kept: unknown[], removals: GateRemoval[]): SilenceExplanation | null {
  if (kept.length > 0 || removals.length === 0) return null;
  const first = removals[0] as GateRemoval;
  if (first.gate === 'no-distinctive-query' || first.gate === 'vague-query') return { rule: first.gate, detail: first.detail };
  // The hybrid query gate ("query gate: …") or lexical recall's ("query gate (words only): …").
  if (first.detail.startsWith('query gate') && removals.every((r) => r.detail === first.detail)) return { rule: 'query-gate', detail: first.detail };
  const counts = new Map<string, number>();
  for (const r of removals) counts.set(r.gate, (counts.get(r.gate) ?? 0) + 1);
  return { rule: 'every-candidate', detail: [...counts].map(([g, n]) => `${g} ${n}`).join(', ') };
}

export const gate: RecallStage = {
  name: 'gate',
  run(fused, run) {
    if (run.options.gates === 'off') return { candidates: fused, record: { kept: fused.length, dropped: 0, note: 'gates off (asked by the caller)', explain: { removals: [], silencedBy: null } } };
    const { deps, cfg } = run;
    const { distinctive, information, informationWords, talkWords } = run.analysis;
    // An English query meets the English bars (recall.english); every other query the configured ones.
    const english = run.analysis.language.language === 'en';
    const chinese = run.analysis.language.language === 'zh';
    const bars = english ? { ...cfg, ...cfg.english } : cfg;
    const noDistinctive = distinctive.size === 0;
    // A line whose information is one everyday word's alone ("same error", "try harder", 明天要开会,
    // 下班了) is small talk; one word rarer than everyday speech (a name, a term of art) still asks, and
    // so does a line that asks a question (its word is its topic) or a search. An English line asks
    // when it opens with a question word, a Chinese one when it holds a question word or mark anywhere.
    const oneWordLine = (english || chinese) && informationWords === 1 && run.options.typedAs !== 'search';
    const loneWordRule = oneWordLine && !(english ? opensWithQuestionWord(run.query) : asksInChinese(run.query));
    const loneBar = loneWordRule ? bars.minLoneWordInformation : 0;
    const bar = Math.max(bars.minQueryInformation, loneBar);
    const tooVague = !noDistinctive && bar > 0 && information < bar;
    let kept: typeof fused;
    let removals: GateRemoval[];
    let queryGate: QueryGateVerdict | undefined;
    let named: NamedKeepExplanation[] = [];
    if (noDistinctive || tooVague) {
      const name = noDistinctive ? ('no-distinctive-query' as const) : ('vague-query' as const);
      const detail = noDistinctive
        ? 'the query has no distinctive term, so nothing is injected'
        : `the query carries too little information (${information.toFixed(1)} < ${bar})${bar === loneBar ? (english ? ' for one English word alone' : ' for one word alone') : ''}${talkWords.length > 0 ? ` (not counted, about the conversation: ${talkWords.join(', ')})` : ''}, so nothing is injected`;
      kept = [];
      removals = fused.map((c) => ({ gate: name, chunkId: c.chunkId, docId: c.docId, title: run.titleOf(c.docId), detail, evidence: c.evidence }));
    } else {
      const namesTitle = titleNamedBy(run.query, distinctive);
      const hasVector = (id: string) => deps.semantic?.hasVector?.(id) ?? true;
      ({ kept, removals, queryGate, named } = applyGates(fused, {
        distinctive,
        semanticRan: run.semantic.ran,
        cfg: bars,
        titleOf: run.titleOf,
        hasVector,
        maxIdf: run.maxIdf,
        hybridThreshold: cfg.hybridGate.threshold,
        hybridVeto: cfg.hybridGate.veto,
        queryGate: run.options.queryGate === false ? null : queryGateFor(run.semantic.ran ? run.semantic.model : undefined, cfg.hybridGate.queryGate),
        lexicalQueryGate: run.options.queryGate === false ? null : lexicalQueryGateFor(cfg.hybridGate.queryGate),
        chunkCount: deps.lexical.size,
        namedByQuery: (docId) => namesTitle(run.titleOf(docId)),
      }));
      // An English statement keeps what the model, too, finds about it (recall.english.minStatementCosine):
      // the words cannot tell a note about "the dog needs a walk" from one that mentions both in passing.
      const statementBar = english && run.reordered && run.options.typedAs !== 'search' && !asksInEnglish(run.query) ? cfg.english.minStatementCosine : 0;
      if (statementBar > 0) {
        const supported: typeof kept = [];
        for (const c of kept) {
          const unsupported = statementSupportVerdict(c, statementBar, hasVector);
          if (unsupported) removals.push({ gate: unsupported.gate, chunkId: c.chunkId, docId: c.docId, title: run.titleOf(c.docId), detail: unsupported.detail });
          else supported.push(c);
        }
        kept = supported;
      }
      const byChunk = new Map(fused.map((c) => [c.chunkId, c]));
      for (const r of removals) r.evidence = byChunk.get(r.chunkId)?.evidence;
    }
    const notes = [
      ...(run.options.queryGate === false ? ['query gates stood aside (asked by the caller: a question completed from the conversation)'] : []),
      ...(named.length > 0 ? [`${named.length} kept below the hybrid bar: the question names their title (${named.map((n) => n.title).join(', ')})`] : []),
    ];
    const note = notes.length > 0 ? notes.join('; ') : undefined;
    return {
      candidates: kept,
      record: { kept: kept.length, dropped: removals.length, ...(note ? { note } : {}), explain: { removals, silencedBy: silenceOf(kept, removals), ...(queryGate ? { queryGate } : {}), ...(named.length > 0 ? { namedByQuery: named } : {}) } },
    };
  },
};
