// L1: the host's compaction summary, cut into its Markdown sections. A section is short and
// conclusion-level, which is what a later question should meet first. Pure.
import { splitByLength } from './split.ts';
import { beginningOf, clipChars, collapseWhitespace, normaliseLineEnds, splitLines } from './text.ts';

export interface SummarySection {
  title: string;
  body: string;
}

const HEADING = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
const MAX_TITLE = 60;
/** Paragraphs shorter than this are joined with the next one (a one-line lead-in is not a section). */
const SHORT_PARAGRAPH = 80;

/**
 * The most of a summary the compaction memory reads, in UTF-16 code units (`.length`: known without
 * a pass over the text). The DSH host's summaries run to a few thousand tokens; by the estimate of
 * tokens.ts that is a few thousand characters of Chinese (≈ 1 token each) or 10,000–25,000 of English
 * (≈ 3 characters a token), so 50,000 keeps any real summary whole with room to spare. Splitting,
 * classifying and tokenising what it is handed runs in one synchronous step: a 3 MB summary held the
 * host's event loop for about 6 s. The whole summary stays in the host's session log.
 */
export const MAX_SUMMARY_CHARS = 50_000;

/**
 * The beginning of a summary, at most `max` UTF-16 code units (text.ts beginningOf): sections come in
 * the host's order and the first ones are what the overview and a later question meet first; it ends
 * at a line break when one is near, so no half sentence becomes a rule.
 */
export const capSummary = (text: string, max: number = MAX_SUMMARY_CHARS): { text: string; cutFrom: number | null } => beginningOf(text, max);

/** The text of the summary's content blocks (several blocks are separate paragraphs). */
export function summaryText(summary: unknown): string {
  if (typeof summary === 'string') return summary;
  if (!Array.isArray(summary)) return '';
  return summary
    .filter((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => (b as { text: string }).text)
    .join('\n\n');
}

const stripMarkup = (line: string): string => collapseWhitespace(line.replace(/[*_`>#]+/g, ' ').replace(/^\s*(?:[-+]|\d+[.)])\s+/, ''));

/** A title for untitled text: its first line, without list markers and emphasis. */
export function titleOf(text: string): string {
  const first = splitLines(text.trim()).find((l) => l.trim() !== '') ?? '';
  return clipChars(stripMarkup(first), 30);
}

interface RawSection {
  path: string[];
  lines: string[];
}

/**
 * Sections by heading. A heading without text of its own lends its name to the sections under it
 * ("决策 › 端口"). Text before the first heading, or a summary without headings, is cut at blank
 * lines. Sections longer than `maxChars` are split into numbered parts; nothing is dropped.
 */
export function splitSummarySections(summary: string, maxChars: number): SummarySection[] {
  const lines = splitLines(normaliseLineEnds(summary));
  const raw: RawSection[] = [];
  const stack: { level: number; title: string; hasText: boolean }[] = [];
  let current: RawSection = { path: [], lines: [] };
  let inFence = false;
  for (const line of lines) {
    if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    const heading = inFence ? null : HEADING.exec(line);
    if (!heading) {
      current.lines.push(line);
      // Only the innermost heading owns the text; its parents stay "without text of their own".
      if (line.trim() !== '' && stack.length > 0) stack.at(-1)!.hasText = true;
      continue;
    }
    raw.push(current);
    const level = heading[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
    const parents = stack.filter((s) => !s.hasText).map((s) => s.title);
    const title = stripMarkup(heading[2]!);
    stack.push({ level, title, hasText: false });
    current = { path: [...parents.slice(-1), title], lines: [] };
  }
  raw.push(current);

  const sections: SummarySection[] = [];
  for (const section of raw) {
    const body = section.lines.join('\n').trim();
    if (body === '') continue;
    const groups = section.path.length > 0 ? [body] : paragraphs(body, maxChars);
    for (const group of groups) {
      const title = clipChars(section.path.length > 0 ? section.path.join(' › ') : titleOf(group) || '摘要', MAX_TITLE);
      const parts = splitByLength(group, maxChars);
      parts.forEach((part, i) => sections.push({ title: parts.length > 1 ? `${title} (${i + 1}/${parts.length})` : title, body: part }));
    }
  }
  return sections;
}

/** Untitled text: one group per paragraph (blank-line separated); short ones join the next. */
function paragraphs(text: string, maxChars: number): string[] {
  const paras = text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== '');
  const groups: string[] = [];
  let current = '';
  for (const para of paras) {
    const joined = current === '' ? para : `${current}\n\n${para}`;
    if (current !== '' && (Array.from(current).length >= SHORT_PARAGRAPH || Array.from(joined).length > maxChars)) {
      groups.push(current);
      current = para;
    } else current = joined;
  }
  if (current !== '') groups.push(current);
  return groups;
}
