// Why a memory came close but was not injected, as one sentence a person reads, and its measured
// value against the threshold for the bar (pure). Built from the engine's near miss: the gate that
// turned it away (recall explanation), its detail, and the query words the memory lacks.
import type { Lang } from '../../client/messages.ts';
import { measuredOf, type Measured } from '../recall/gates.ts';

export interface NearMissLike {
  gate: string;
  detail: string;
  missing: readonly string[];
  probability?: number | null;
}

export type MeasureKind = 'coverage' | 'specificity' | 'similarity' | 'confidence';

export interface NearMissReason {
  sentence: string;
  measured: (Measured & { kind: MeasureKind }) | null;
}

const QUERY_LEVEL = new Set(['vague-query', 'no-distinctive-query']);
const quoteZh = (words: readonly string[]) => words.map((w) => `“${w}”`).join('');
const quoteEn = (words: readonly string[]) => words.map((w) => `"${w}"`).join(', ');
/** At most this many missing words are named (the rest are implied). */
const NAMED = 3;

function sentenceOf(miss: NearMissLike, lang: Lang): string {
  const zh = lang === 'zh';
  const queryGate = miss.gate === 'hybrid' && miss.detail.startsWith('query gate');
  if (QUERY_LEVEL.has(miss.gate)) return zh ? '问题太笼统，没有能说明主题的词' : 'The question is too vague: no word in it says what it is about';
  if (miss.missing.length > 0) {
    // What the memory lacks is what a person can fix, also when the whole question was silenced.
    const named = miss.missing.slice(0, NAMED);
    const more = miss.missing.length > NAMED;
    const lacks = zh
      ? `问题里的${quoteZh(named)}${more ? '等词' : ''}在这条记忆里没有出现`
      : `${quoteEn(named)}${more ? ' and more' : ''} from the question ${named.length === 1 && !more ? 'does' : 'do'} not appear in this memory`;
    if (!queryGate) return lacks;
    return zh ? `${lacks}，整个问题因此看起来不像记忆能回答的` : `${lacks}, so the question as a whole does not look like one the memories answer`;
  }
  if (queryGate) return zh ? '整个问题看起来不像记忆能回答的，所以一条都没有注入' : 'The question as a whole does not look like one the memories answer, so nothing was injected';
  const only = miss.detail.match(/^matched only (.*) \(none distinctive\)$/);
  switch (miss.gate) {
    case 'distinctive-term':
      if (!only) return zh ? '只对上了问题里的几个字，没有一个词' : 'It shares a few characters with the question, not one word';
      return zh
        ? `对上的只有${quoteZh((only?.[1] ?? '').split(' ').filter(Boolean))}，太常见，不足以说明相关`
        : `It shares only ${quoteEn((only?.[1] ?? '').split(' ').filter(Boolean))} with the question: too common to show it is related`;
    case 'coverage':
      return zh ? '只对上了问题的一小部分' : 'It matches only a small part of the question';
    case 'specificity':
      return zh ? '对上的词太常见，不足以说明相关' : 'The words it shares are too common to show it is related';
    case 'semantic-min':
      return zh ? '意思上不够接近' : 'Its meaning is not close enough';
    case 'semantic-required':
      return zh ? '按意思找没有找到它' : 'The search by meaning did not find it';
    case 'hybrid':
      return zh ? '关键词和语义合起来，把握还不够' : 'Keywords and meaning together are not convincing enough';
    case 'judge':
      return zh ? '复核的模型认为它不相关' : 'The reviewing model judged it unrelated';
    default:
      return zh ? '没有通过相关性检查' : 'It did not pass the relevance checks';
  }
}

function measuredFor(miss: NearMissLike): NearMissReason['measured'] {
  if (miss.gate === 'hybrid') {
    const m = miss.detail.match(/^p (\d+(?:\.\d+)?) < (?:veto )?(\d+(?:\.\d+)?)/);
    if (!m) return null;
    return { value: miss.probability ?? Number(m[1]), threshold: Number(m[2]), unit: 'number', kind: 'confidence' };
  }
  const measured = measuredOf(miss.gate, miss.detail);
  if (!measured) return null;
  const kind: MeasureKind = miss.gate === 'coverage' ? 'coverage' : miss.gate === 'specificity' ? 'specificity' : 'similarity';
  return { ...measured, kind };
}

export function nearMissReason(miss: NearMissLike, lang: Lang): NearMissReason {
  return { sentence: sentenceOf(miss, lang), measured: measuredFor(miss) };
}
