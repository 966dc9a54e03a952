// Shapes printed by the CLI. The recall JSON is a public contract (one object per query line).
import type { RecallResult } from '../recall/types.ts';
import { roundEvidence } from '../recall/hybrid-gate.ts';
import { terminalSafe } from '../diary/sanitize.ts';

export function recallJson(r: RecallResult) {
  return {
    query: r.query,
    hits: r.hits.map((h) => ({
      docId: h.docId,
      path: h.path,
      root: h.root,
      title: h.title,
      date: h.date,
      score: round(h.score),
      channels: {
        lexical: h.channels.lexical && { rank: h.channels.lexical.rank, score: round(h.channels.lexical.score) },
        semantic: h.channels.semantic && { rank: h.channels.semantic.rank, score: round(h.channels.semantic.score) },
        fused: round(h.channels.fused),
        decay: round(h.channels.decay),
      },
      matched: h.matched.map((m) => ({ token: m.token, idf: round(m.idf), fields: m.fields })),
      folded: h.folded,
      // Near-duplicate notes this hit stands for ("also noted N times").
      ...(h.duplicates ? { duplicates: h.duplicates } : {}),
      // What sort of memory and its goal (seed 004), when it has them: part of why it was found.
      ...(h.kind ? { kind: h.kind } : {}),
      ...(h.goal ? { goal: h.goal } : {}),
      ...(h.evidence ? { evidence: roundEvidence(h.evidence) } : {}),
    })),
    gate: {
      removed: r.explain.gate.removed,
      byGate: r.explain.gate.byGate,
      reasons: r.explain.gate.removals.map((x) => ({ gate: x.gate, docId: x.docId, title: x.title, detail: x.detail, ...(x.evidence ? { evidence: roundEvidence(x.evidence) } : {}) })),
      distinctiveTokens: r.explain.gate.distinctiveTokens,
      noDistinctiveTokens: r.explain.gate.noDistinctiveTokens,
      // The rule that left nothing to inject, when candidates existed.
      ...(r.explain.gate.silencedBy ? { silencedBy: r.explain.gate.silencedBy } : {}),
      // Kept below the hybrid bar because the question names their title (recall/scoring.ts titleNamedBy).
      ...(r.explain.gate.namedByQuery ? { namedByQuery: r.explain.gate.namedByQuery } : {}),
    },
    semantic: r.explain.semantic,
    // Hits moved down because a better one holds their matching sentences (recall/redundancy.ts).
    ...(r.explain.redundant ? { redundant: r.explain.redundant } : {}),
    tokens: r.tokens.map((t) => ({ token: t.token, idf: round(t.idf), distinctive: t.distinctive, fromAlias: t.fromAlias, ...(t.written ? { written: t.written } : {}) })),
    // The language the query was read in, where each word's weight and rarity come from, near-duplicate groups.
    ...(r.explain.language ? { language: r.explain.language } : {}),
    ...(r.explain.terms ? { terms: r.explain.terms } : {}),
    ...(r.explain.nearDuplicates?.length ? { nearDuplicates: r.explain.nearDuplicates } : {}),
    k: r.explain.k,
    timing: r.timing,
  };
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

export function recallText(r: RecallResult): string {
  const lines: string[] = [];
  lines.push(`query: ${r.query}`);
  lines.push(`tokens: ${r.tokens.map((t) => `${t.written ? `${t.written}→${t.token}` : t.token}${t.distinctive ? '*' : ''}`).join(' ') || '(none)'}   (* = distinctive)`);
  const language = r.explain.language;
  if (language) lines.push(`language: ${language.query} (${language.rule === 'reorder' ? `the model only reorders what the words found, weight ${language.semanticWeight}` : `semantic weight ${language.semanticWeight}`})`);
  const talk = (r.explain.terms ?? []).filter((t) => t.talk).map((t) => t.token);
  if (talk.length > 0) lines.push(`about the conversation, not counted: ${talk.join(' ')}`);
  lines.push(`semantic: ${r.explain.semantic.ran ? `ran, ${r.explain.semantic.candidates} candidates` : `skipped (${r.explain.semantic.skipped})`}`);
  if (r.hits.length === 0) lines.push('no hits: nothing would be injected');
  // Which rule silenced the question, with what it read (a query gate's features, a bar and its value).
  const silenced = r.explain.gate.silencedBy;
  if (r.hits.length === 0 && silenced) lines.push(`silenced by ${silenced.rule}: ${silenced.detail}`);
  r.hits.forEach((h, i) => {
    const lex = h.channels.lexical ? `lex #${h.channels.lexical.rank} ${h.channels.lexical.score.toFixed(2)}` : 'lex —';
    const sem = h.channels.semantic ? `sem #${h.channels.semantic.rank} ${h.channels.semantic.score.toFixed(3)}` : 'sem —';
    lines.push(`${i + 1}. ${h.date} ${h.title}  [${h.path}]`);
    lines.push(`   score ${h.score.toFixed(4)} (${lex}, ${sem}, decay ${h.channels.decay.toFixed(2)})${h.folded ? `, ${h.folded} more chunks folded` : ''}${h.duplicates ? `, also noted ${h.duplicates} times` : ''}`);
    lines.push(`   matched: ${h.matched.map((m) => `${m.token}(idf ${m.idf.toFixed(2)})`).join(' ') || '—'}`);
  });
  if (r.explain.gate.removed > 0)
    lines.push(`gates removed ${r.explain.gate.removed}: ${Object.entries(r.explain.gate.byGate).map(([g, n]) => `${g} ${n}`).join(', ')}`);
  for (const n of r.explain.gate.namedByQuery ?? []) lines.push(`kept by name: ${n.title} (p ${n.p.toFixed(2)} below the bar ${n.bar}; the question names its title)`);
  for (const m of r.explain.redundant ?? []) lines.push(`moved down: ${m.title} (its ${m.sentences} matching sentences are all in ${m.coveredByTitle})`);
  lines.push(`time: ${r.timing.totalMs.toFixed(1)} ms`);
  return lines.join('\n');
}

export function progressBar(label: string, done: number, total: number, width = 30): string {
  const ratio = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(ratio * width);
  return `${label.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total}`;
}

/** Items of a long array serialised per piece. */
const PIECE_ITEMS = 1000;

/**
 * `JSON.stringify(value)` in pieces that join to exactly it: a top-level object property at a time,
 * a long array a thousand items at a time. An index report over 50,000 notes can list 40,000
 * warnings; as one string (then copied made terminal-safe and with its newline) it was ~13 MB on
 * top of the pass's peak.
 */
export function* jsonPieces(value: unknown): Generator<string> {
  const plain = value !== null && typeof value === 'object' && !('toJSON' in value) && Object.getPrototypeOf(value) === Object.prototype;
  if (Array.isArray(value) && value.length > PIECE_ITEMS) {
    for (let i = 0; i < value.length; i += PIECE_ITEMS) {
      const slice = JSON.stringify(value.slice(i, i + PIECE_ITEMS));
      yield `${i === 0 ? '[' : ','}${slice.slice(1, -1)}`;
    }
    yield ']';
    return;
  }
  if (!plain) {
    yield JSON.stringify(value);
    return;
  }
  let first = true;
  yield '{';
  for (const [key, item] of Object.entries(value)) {
    // What JSON.stringify leaves out of an object: undefined, functions, symbols.
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item);
  }
  yield '}';
}

/** Prints `value` as one line of JSON, written as it is serialised, terminal-safe like every line the CLI prints. */
export function printJson(value: unknown): void {
  for (const piece of jsonPieces(value)) process.stdout.write(terminalSafe(piece));
  process.stdout.write('\n');
}
