// Rules from compaction summaries. Every sentence of a summary is classified by fixed patterns —
// no model, so it is free, deterministic and explainable:
//   rule — states a rule (必须 / 不许 / 一律 / 约定 …), or fixes a decision (定为 / 拍板 …) next to a
//          number, a path or a session id → the minor-rules book;
//   note — a lesson (教训 / 坑 / 注意 …), or carries a number, a path or a session id, or is a long
//          substantive paragraph → the archive;
//   drop — the rest.
// A rule sentence that is not Chinese-dominant (an English summary quoting 必须) is demoted to a
// note: the book holds the session's own rules, not quotations. Pure.
import { isChineseDominant } from './language.ts';
import { collapseWhitespace, normaliseLineEnds, splitLines } from './text.ts';

export type RuleTier = 'rule' | 'note' | 'drop';

export const RULE_WORDS = /必须|务必|不许|不准|不得|一律|只能|以后都|原则上|原则|约定|规矩|职责|不要再|别再|禁止|严禁/;
export const DECISION_WORDS = /定在|定为|拍板|决定|敲定/;
export const NOTE_WORDS = /教训|踩过|踩坑|坑|注意|小心|切记/;
const DIGIT = /\d/;
const PATH = /(?:[A-Za-z]:[\\/]|\.{1,2}\/|~\/|\/)?[\w.-]+(?:[\\/][\w.-]+)+|\b[\w-]+\.(?:ts|js|mjs|json|md|txt|yml|yaml|toml|py|sh|sql|css|html)\b/;
const SESSION_ID = /\bs[-:]?[0-9a-f]{8}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
/** Spans shorter than this (好的。确认。) carry nothing. */
export const MIN_SPAN_CHARS = 8;
/** A paragraph this long is substance even without a marker. */
export const LONG_SPAN_CHARS = 200;

export interface ClassifiedSpan {
  text: string;
  tier: RuleTier;
  /** Why: the pattern that decided, or 'demoted:not-chinese'. */
  reason: string;
}

const hasAnchor = (text: string): boolean => DIGIT.test(text) || PATH.test(text) || SESSION_ID.test(text);

export function classifySpan(text: string): ClassifiedSpan {
  const rule = RULE_WORDS.exec(text)?.[0] ?? (DECISION_WORDS.test(text) && hasAnchor(text) ? DECISION_WORDS.exec(text)![0] : null);
  if (rule) {
    if (isChineseDominant(text)) return { text, tier: 'rule', reason: rule };
    return { text, tier: 'note', reason: 'demoted:not-chinese' };
  }
  const note = NOTE_WORDS.exec(text)?.[0];
  if (note) return { text, tier: 'note', reason: note };
  if (DIGIT.test(text)) return { text, tier: 'note', reason: 'number' };
  if (PATH.test(text)) return { text, tier: 'note', reason: 'path' };
  if (SESSION_ID.test(text)) return { text, tier: 'note', reason: 'session-id' };
  if (Array.from(text).length > LONG_SPAN_CHARS) return { text, tier: 'note', reason: 'long' };
  return { text, tier: 'drop', reason: 'no-marker' };
}

const HEADING = /^\s{0,3}#{1,6}\s/;
const FENCE = /^\s{0,3}(?:`{3,}|~{3,})/;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)、])\s+/;
/** Sentence ends, full-width and ASCII; the full stop '.' is not one (1.5, v0.2.6, a.yaml stay whole). */
const SENTENCE_END = /(?<=[。！？；!?;])/u;

/**
 * The sentences of a summary: all five line terminators split lines, headings and code fences are
 * structure (skipped), list markers and emphasis are removed, and each line is cut into sentences.
 */
export function summarySpans(summary: string): string[] {
  const spans: string[] = [];
  let inFence = false;
  for (const line of splitLines(normaliseLineEnds(summary))) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || HEADING.test(line)) continue;
    const cleaned = collapseWhitespace(line.replace(LIST_MARKER, '').replace(/\*\*|__/g, ''));
    if (cleaned === '') continue;
    for (const sentence of cleaned.split(SENTENCE_END)) {
      const span = sentence.trim();
      if (Array.from(span).length >= MIN_SPAN_CHARS) spans.push(span);
    }
  }
  return spans;
}

export function classifySummary(summary: string): ClassifiedSpan[] {
  return summarySpans(summary).map(classifySpan);
}
