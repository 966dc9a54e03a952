// The overview shown once after each compaction: "topic — conclusion" lines for the session so far,
// so the new window knows which big pieces were discussed before. Built from the L1 sections of
// every compaction (newest first, one line per topic), within a token budget; a section without a
// conclusion-like sentence gives no line, and nothing worth keeping gives no overview at all. Its
// text is computed once per compaction and stored, so it stays byte-identical for the window. Pure.
import { neutraliseDelimiters } from '../security/delimiters.ts';
import { estimateTokens } from './tokens.ts';
import { clipChars, collapseWhitespace, normaliseLineEnds } from './text.ts';

export const CONCLUSION_WORDS = /结论|决定|定为|定在|改为|改用|采用|确认|最终|敲定|拍板|选定|约定|方案是|答案是|结果是|必须|不再|一律|→|=>/;
const SENTENCE = /[^。！？!?；;\n]+[。！？!?；;]?/gu;
export const OVERVIEW_HEAD = '本会话此前的脉络(压缩前讨论过的话题 — 当时的结论,仅供参考):';
export const OVERVIEW_TAG = 'engram-overview';
const MAX_TOPIC = 24;
const MAX_CONCLUSION = 90;

export interface OverviewSource {
  title: string;
  body: string;
  /** Which compaction (order) it came from: newer wins for the same topic. */
  order: number;
}

/** The conclusion sentence of a section: the last sentence that reads like one, or null. */
export function conclusionOf(body: string): string | null {
  const sentences = (normaliseLineEnds(body).match(SENTENCE) ?? [])
    .map((s) => collapseWhitespace(s.replace(/^\s*(?:[-*+]|\d+[.)、])\s+/, '').replace(/\*\*|__|`/g, '')))
    .filter((s) => Array.from(s).length >= 4);
  for (let i = sentences.length - 1; i >= 0; i--) if (CONCLUSION_WORDS.test(sentences[i]!)) return sentences[i]!;
  return null;
}

const topicKey = (title: string): string => collapseWhitespace(title.replace(/\s*\(\d+\/\d+\)$/, '')).toLowerCase();

export function overviewLines(sources: readonly OverviewSource[]): { topic: string; conclusion: string; order: number }[] {
  const byTopic = new Map<string, { topic: string; conclusion: string; order: number; at: number }>();
  sources.forEach((s, at) => {
    const conclusion = conclusionOf(s.body);
    if (!conclusion) return;
    const key = topicKey(s.title);
    const existing = byTopic.get(key);
    if (existing && existing.order > s.order) return;
    byTopic.set(key, { topic: clipChars(topicKey(s.title) === '' ? '话题' : collapseWhitespace(s.title.replace(/\s*\(\d+\/\d+\)$/, '')), MAX_TOPIC), conclusion: clipChars(conclusion, MAX_CONCLUSION), order: s.order, at });
  });
  return [...byTopic.values()].sort((a, b) => a.order - b.order || a.at - b.at);
}

export function renderOverview(lines: readonly { topic: string; conclusion: string }[]): string {
  if (lines.length === 0) return '';
  return [`<${OVERVIEW_TAG}>`, OVERVIEW_HEAD, neutraliseDelimiters(lines.map((l) => `- ${l.topic} — ${l.conclusion}`).join('\n')), `</${OVERVIEW_TAG}>`].join('\n');
}

/**
 * The overview within `maxTokens` (estimated, whole text): the newest compaction's lines are kept
 * first, older ones while they fit; lines come out in chronological order. '' when nothing fits.
 */
export function buildOverview(sources: readonly OverviewSource[], maxTokens: number): { text: string; tokens: number; lines: number } {
  const all = overviewLines(sources);
  const kept: typeof all = [];
  const byPriority = [...all].sort((a, b) => b.order - a.order);
  for (const line of byPriority) {
    const trial = [...kept, line].sort((a, b) => all.indexOf(a) - all.indexOf(b));
    if (estimateTokens(renderOverview(trial)) <= maxTokens) kept.splice(0, kept.length, ...trial);
  }
  const text = renderOverview(kept);
  return { text, tokens: text === '' ? 0 : estimateTokens(text), lines: kept.length };
}
