// How Recall debug words the engine's explanation of a query (recall/types.ts): the language it was
// read in, where each word's weight and rarity come from, and which rule silenced it. Pure.
import type { MessageKey } from '../../client/messages.ts';

type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export interface TermLike {
  token: string;
  weight: number;
  weightSource: 'language' | 'unknown-word' | 'store' | 'none';
  languageTable?: 'zh' | 'en';
  rarity: { idf: number; source: 'store' | 'language' | 'blend'; storeDf: number; groupedDf: number } | null;
  talk?: true;
}

export interface LanguageLike {
  query: 'zh' | 'en' | 'mixed' | 'none';
  semanticWeight: number;
  rule: 'calibrated' | 'reorder';
}

/** "Language: Chinese · meaning weight 0.25", or English's rule: the model only reorders what the words found. */
export function languageText(l: LanguageLike, t: Translate): string {
  const lang = t(`recall.language.${l.query}`);
  const w = Number(l.semanticWeight.toFixed(3));
  return `${t('recall.language', { lang })} · ${t(l.rule === 'reorder' ? 'recall.language.reorder' : 'recall.language.calibrated', { w })}`;
}

/** Where a word's weight comes from: the general table (which), a name not in it, the store, or nowhere. */
export function weightSourceText(term: TermLike, t: Translate): string {
  if (term.weightSource === 'language') return t(term.languageTable === 'en' ? 'recall.terms.source.en' : 'recall.terms.source.zh');
  return t(`recall.terms.source.${term.weightSource}`);
}

/** The rarity the gates read, its source, and the store's counts (copies of one note counted once). */
export function rarityText(term: TermLike, t: Translate): string | null {
  const r = term.rarity;
  if (!r) return null;
  return t('recall.terms.rarity', { idf: r.idf.toFixed(2), source: t(`recall.terms.rarity.${r.source}`), df: r.storeDf, grouped: r.groupedDf });
}

/** The rule that left nothing to inject (diary-missing: the engine read nothing, its diary folder is gone), in the reader's words. */
export function silencedRuleText(rule: 'no-distinctive-query' | 'vague-query' | 'query-gate' | 'every-candidate' | 'diary-missing', t: Translate): string {
  return t('recall.silenced', { rule: t(`recall.silenced.${rule}`) });
}
