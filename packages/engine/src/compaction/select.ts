// What one question gets injected: the best blocks above the threshold, never one already shown
// (by fingerprint) nor one too similar to a shown one unless a look-again forced it, each cut to an excerpt around the words the
// question matched, within the item, character and token budgets. Pure.
import { neutraliseDelimiters } from '../security/delimiters.ts';
import { estimateTokens } from './tokens.ts';
import { charLength, clipChars, collapseWhitespace, jaccard } from './text.ts';
import type { BlockKind, BlockLayer } from './types.ts';

export const HISTORY_TAG = 'engram-history';

export interface SelectableBlock {
  id: string;
  fingerprint: string;
  layer: BlockLayer;
  kind: BlockKind;
  title: string;
  body: string;
}

export interface Candidate {
  block: SelectableBlock;
  score: number;
  matched: readonly string[];
}

export interface SelectOptions {
  minScore: number;
  maxItems: number;
  /** Characters of one item as shown: its heading line and excerpt together. */
  maxItemChars: number;
  /** Excerpts shorter than this are not worth injecting. */
  minItemChars: number;
  /** Estimated tokens of the whole message. */
  maxTokens: number;
  header: string;
  duplicateSimilarity: number;
}

export interface Shown {
  fingerprints: ReadonlySet<string>;
  /** Token sets of blocks already injected (for the similarity check). */
  tokenSets: readonly ReadonlySet<string>[];
}

export interface SelectedItem {
  id: string;
  fingerprint: string;
  score: number;
  /** The item as it appears in the message (heading line + excerpt). */
  text: string;
}

export interface Dropped {
  id: string;
  reason: 'below-threshold' | 'already-injected' | 'similar-to-injected' | 'too-short' | 'over-items' | 'over-tokens';
}

export interface Selection {
  items: SelectedItem[];
  /** The whole message text ('' when nothing is injected). */
  text: string;
  tokens: number;
  dropped: Dropped[];
}

const LABEL: Record<BlockKind, string> = { summary: '压缩摘要', dialogue: '对话原文', tool: '工具结果' };

const SENTENCES = /[^。！？!?；;]+[。！？!?；;]*/gu;

/**
 * The part of a body around the question's words: the sentence with the most matched tokens, grown
 * by its neighbours while it fits `maxChars`; "…" marks a cut at either end (counted in maxChars).
 */
export function excerptAround(body: string, matched: readonly string[], maxChars: number): string {
  const flat = collapseWhitespace(body);
  if (charLength(flat) <= maxChars) return flat;
  const sentences = flat.match(SENTENCES) ?? [flat];
  const lower = sentences.map((s) => s.toLowerCase());
  let best = 0;
  let bestHits = -1;
  lower.forEach((s, i) => {
    const hits = matched.filter((t) => s.includes(t)).length;
    if (hits > bestHits) {
      best = i;
      bestHits = hits;
    }
  });
  let from = best;
  let to = best;
  const room = maxChars - 2; // both ends may need a "…"
  const lengthOf = (a: number, b: number) => charLength(sentences.slice(a, b + 1).join(''));
  if (lengthOf(from, to) > room) return clipChars(`${from > 0 ? '…' : ''}${sentences[best]!.trim()}`, maxChars);
  for (;;) {
    const canNext = to + 1 < sentences.length && lengthOf(from, to + 1) <= room;
    const canPrev = from > 0 && lengthOf(from - 1, to) <= room;
    if (canNext) to++;
    else if (canPrev) from--;
    else break;
  }
  return `${from > 0 ? '…' : ''}${sentences.slice(from, to + 1).join('').trim()}${to < sentences.length - 1 ? '…' : ''}`;
}

export function renderHistory(header: string, items: readonly { text: string }[]): string {
  if (items.length === 0) return '';
  // Neutralised as a whole: pieces can form a tag only once joined (security/delimiters.ts).
  const body = neutraliseDelimiters([header.trim(), ...items.map((i) => i.text)].filter((l) => l !== '').join('\n'));
  return [`<${HISTORY_TAG}>`, body, `</${HISTORY_TAG}>`].filter((l) => l !== '').join('\n');
}

export function selectForInjection(candidates: readonly Candidate[], shown: Shown, tokenSetOf: (text: string) => ReadonlySet<string>, options: SelectOptions): Selection {
  const dropped: Dropped[] = [];
  const picked: SelectedItem[] = [];
  const pickedSets: ReadonlySet<string>[] = [];
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  for (const candidate of sorted) {
    const { block } = candidate;
    if (candidate.score < options.minScore) {
      dropped.push({ id: block.id, reason: 'below-threshold' });
      continue;
    }
    // A forced candidate (score Infinity: a look-again found it) is what the person asked for again:
    // shown before or like a shown one, it comes back.
    const forced = !Number.isFinite(candidate.score);
    if (!forced && shown.fingerprints.has(block.fingerprint)) {
      dropped.push({ id: block.id, reason: 'already-injected' });
      continue;
    }
    const tokens = tokenSetOf(`${block.title} ${block.body}`);
    if (!forced && [...shown.tokenSets, ...pickedSets].some((s) => jaccard(s, tokens) >= options.duplicateSimilarity)) {
      dropped.push({ id: block.id, reason: 'similar-to-injected' });
      continue;
    }
    if (picked.length >= options.maxItems) {
      dropped.push({ id: block.id, reason: 'over-items' });
      continue;
    }
    const heading = clipChars(`[${picked.length + 1}] ${collapseWhitespace(block.title)} · ${LABEL[block.kind]}`, Math.max(10, Math.floor(options.maxItemChars / 3)));
    const excerpt = excerptAround(block.body, candidate.matched, options.maxItemChars - charLength(heading) - 1);
    // A forced candidate is shown however short.
    if (charLength(excerpt) < options.minItemChars && !forced) {
      dropped.push({ id: block.id, reason: 'too-short' });
      continue;
    }
    picked.push({ id: block.id, fingerprint: block.fingerprint, score: candidate.score, text: `${heading}\n${excerpt}` });
    pickedSets.push(tokens);
  }
  // The token budget drops whole items from the end (a cut item would read as the whole).
  let items = picked;
  let text = renderHistory(options.header, items);
  while (items.length > 0 && estimateTokens(text) > options.maxTokens) {
    const last = items.at(-1)!;
    dropped.push({ id: last.id, reason: 'over-tokens' });
    items = items.slice(0, -1);
    text = renderHistory(options.header, items);
  }
  return { items, text, tokens: text === '' ? 0 : estimateTokens(text), dropped };
}
