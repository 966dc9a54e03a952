// Gate removals as a person reads them (pure): grouped by document (a document's chunks usually fail
// the same gate for the same reason), each with the measured value against its threshold when the
// gate has one, and the numbers rounded so that a value below its threshold never prints equal to it
// ("6.46 < 6.5", not "6.5 < 6.5").
import { engineText } from '../../client/engine-text.ts';
import type { Lang } from '../../client/messages.ts';

export interface GateRemovalLike {
  gate: string;
  chunkId: string;
  docId: string;
  title: string;
  detail: string;
}

export interface Measured {
  value: number;
  threshold: number;
  /** How to print: a percentage or a plain number. */
  unit: 'percent' | 'number';
}

export interface GateFinding {
  gate: string;
  /** Chunks of the document this finding covers. */
  chunks: number;
  measured: Measured | null;
  /** The engine's reason in the reader's language. */
  reason: string;
}

export interface DocumentGates {
  docId: string;
  title: string;
  findings: GateFinding[];
}

/** Gates that judge the query, not a hit: every candidate is removed for the same reason. */
export const QUERY_GATES = new Set(['vague-query', 'no-distinctive-query']);

export function measuredOf(gate: string, detail: string, queryInformation?: number): Measured | null {
  let m: RegExpMatchArray | null;
  if (gate === 'coverage' && (m = detail.match(/explains (\d+(?:\.\d+)?)% of the query \(< (\d+(?:\.\d+)?)%\)/))) {
    return { value: Number(m[1]) / 100, threshold: Number(m[2]) / 100, unit: 'percent' };
  }
  if (gate === 'specificity' && (m = detail.match(/specificity (\d+(?:\.\d+)?) < (\d+(?:\.\d+)?)/))) return { value: Number(m[1]), threshold: Number(m[2]), unit: 'number' };
  if (gate === 'semantic-min' && (m = detail.match(/cosine (\d+(?:\.\d+)?) < (\d+(?:\.\d+)?)/))) return { value: Number(m[1]), threshold: Number(m[2]), unit: 'number' };
  if (gate === 'vague-query' && (m = detail.match(/\((\d+(?:\.\d+)?) < (\d+(?:\.\d+)?)\)/))) {
    // The explanation carries the unrounded measure; the detail string only a rounded one.
    return { value: queryInformation ?? Number(m[1]), threshold: Number(m[2]), unit: 'number' };
  }
  return null;
}

const decimalsOf = (n: number) => (Number.isInteger(n) ? 0 : String(n).split('.')[1]!.length);

/**
 * `value` and `threshold` printed with the threshold's precision, adding digits (up to 4) while the
 * rounded value would read as equal to the threshold it failed.
 */
export function formatAgainst(value: number, threshold: number, unit: Measured['unit']): { value: string; threshold: string } {
  const scale = unit === 'percent' ? 100 : 1;
  const v = value * scale;
  const th = threshold * scale;
  let d = decimalsOf(Number(th.toFixed(4)));
  while (d < 4 && Number(v.toFixed(d)) === Number(th.toFixed(d)) && v !== th) d += 1;
  const suffix = unit === 'percent' ? '%' : '';
  return { value: `${v.toFixed(d)}${suffix}`, threshold: `${th.toFixed(decimalsOf(Number(th.toFixed(4))))}${suffix}` };
}

const ZH_REASONS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^matched only (.*) \(none distinctive\)$/, (m) => `只对上了 ${m[1]}，太常见，不足以说明相关`],
  [/^matched characters of the query, no word of it$/, () => '只对上了问题里的几个字，没有一个词'],
  [
    /^query gate: .*?(?:; channels agree, which counts from (\d+) chunks \(this store: (\d+)\))?$/s,
    (m) => `整个问题看起来不像记忆能回答的（关键词和语义合起来判断）${m[1] ? `；两路检索都把同一条排在第一，但记忆还少（${m[2]} 块，满 ${m[1]} 块才算数）` : ''}`,
  ],
  [/^query gate \(words only\): /, () => '整个问题看起来不像记忆能回答的（只按关键词判断：语义模型没有参与）'],
  [/^p \d+(?:\.\d+)? < (?:veto )?\d+(?:\.\d+)? .*/s, () => '关键词和语义合起来，把握不够'],
  [/^no lexical match$/, () => '没有对上任何关键词'],
  [/^explains (\d+(?:\.\d+)?)% of the query/, () => '只对上了问题的一小部分'],
  [/^specificity .*rarest matched word (.+)\)$/, (m) => `对上的词太常见，不足以说明相关（其中最少见的是 ${m[1]}）`],
  [/^an English statement: cosine .*/, () => '英文陈述：语义模型不认为这条记忆说的是这件事（相似度低于下限）'],
  [/^an English statement: the model does not put this note among its nearest$/, () => '英文陈述：语义模型没有把这条记忆排进最接近的几条'],
  [/^cosine .*/, () => '意思不够接近（语义相似度低于下限）'],
  [/^not among the semantic channel's candidates$/, () => '按意思搜索没有找到它'],
  [/^judge probability (.*)$/, (m) => `复核的模型给出的相关概率 ${m[1]}`],
  [/^the query has no distinctive term, so nothing is injected$/, () => '问题里没有能说明主题的词，所以一条都不注入'],
  [
    /^the query carries too little information \((\d+(?:\.\d+)?) < (\d+(?:\.\d+)?)\)( for one (English )?word alone)?(?: \(not counted, about the conversation: ([^)]+)\))?, so nothing is injected$/,
    (m) => `词的信息量 ${m[1]}，不到 ${m[2]}（像闲聊${m[3] ? (m[4] ? '：英文只有一个日常词' : '：只有一个日常词') : ''}），所以一条都不注入${m[5] ? `（${m[5]} 说的是对话本身，不计入）` : ''}`,
  ],
  [/^the query carries too little information\b.*$/, () => '查询信息量太低（像闲聊），所以一条都不注入'],
];

export function reasonText(detail: string, lang: Lang): string {
  if (lang === 'zh')
    for (const [re, fn] of ZH_REASONS) {
      const m = detail.match(re);
      if (m) return fn(m);
    }
  // A detail the engine wrote in both languages (the diary folder gone): the reader's half.
  return engineText(detail, lang);
}

export function groupRemovals(removals: readonly GateRemovalLike[], lang: Lang, queryInformation?: number): DocumentGates[] {
  const docs = new Map<string, DocumentGates>();
  for (const r of removals) {
    if (QUERY_GATES.has(r.gate)) continue;
    let doc = docs.get(r.docId);
    if (!doc) docs.set(r.docId, (doc = { docId: r.docId, title: r.title, findings: [] }));
    const measured = measuredOf(r.gate, r.detail, queryInformation);
    const reason = reasonText(r.detail, lang);
    const same = doc.findings.find((f) => f.gate === r.gate && f.reason === reason);
    // Chunks of one document failing one gate: one line, the best (highest) value shown.
    if (same) {
      same.chunks += 1;
      if (measured && same.measured && measured.value > same.measured.value) same.measured = measured;
    } else doc.findings.push({ gate: r.gate, chunks: 1, measured, reason });
  }
  return [...docs.values()];
}
