// The notebook's injected text: this session's own rules and the minor rules compaction gathered,
// under a statement of which wins when they disagree. Nothing at all when both books are empty (a
// session that never wrote rules pays no tokens). The same books always give the same bytes, so
// the system prompt stays cache-stable while nobody edits them. Pure.
import { normaliseLineEnds } from '../compaction/text.ts';
import { neutraliseDelimiters } from '../security/delimiters.ts';
import type { RuleEntry } from '../compaction/rules-book.ts';

export const NOTEBOOK_TAG = 'engram-notebook';

export const PRECEDENCE_TEXT = [
  '以下是本会话的规则本。几层规矩冲突时,按这个次序,靠前的说了算:',
  '1. 本会话规则(下方「本会话规则」一节:只属于这条会话的设定与规矩)',
  '2. 通用规则(系统提示、AGENTS.md 等对所有会话都适用的要求)',
  '3. 次要规则(下方「次要规则」一节:压缩时从摘要里自动归纳,权限最低,冲突时让位)',
].join('\n');

export interface CutText {
  text: string;
  cut: boolean;
  /** Characters (code points) before the cut. */
  total: number;
}

/** At most `maxChars` code points of `text`, then a visible mark saying how much was left out. */
export function cutWithMark(text: string, maxChars: number): CutText {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return { text, cut: false, total: chars.length };
  const kept = chars.slice(0, Math.max(0, maxChars)).join('').trimEnd();
  return { text: `${kept}\n…〔已截断:本节共 ${chars.length} 字,只注入了前 ${maxChars} 字;全文用 engram_notebook 读取〕`, cut: true, total: chars.length };
}

/** The minor-rules book as lines: the most-hit rules first (the ones a cut keeps). */
export function renderMinorBook(entries: readonly RuleEntry[]): string {
  const sorted = [...entries].sort((a, b) => b.hits - a.hits || (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0) || (a.text < b.text ? -1 : 1));
  return sorted.map((e) => `- ${neutraliseDelimiters(e.text)}${e.hits > 1 ? `(×${e.hits})` : ''}`).join('\n');
}

/** A book's text as injected: line ends unified, blank edges dropped. */
export const bookText = (text: string): string => neutraliseDelimiters(normaliseLineEnds(text).replace(/^\s*\n/, '').trimEnd());

/** Item 3 when the minor rules come as their own message after a compaction rather than in this section. */
export const MINOR_ELSEWHERE_TEXT = '3. 次要规则(压缩后单独给出的「次要规则」:自动归纳,权限最低,冲突时让位)';

export function renderNotebookInjection(books: { rules: string; minor: readonly RuleEntry[]; minorElsewhere?: boolean }, maxChars: number): string {
  if (maxChars <= 0) return '';
  const rules = bookText(books.rules);
  const minor = renderMinorBook(books.minor);
  if (rules.trim() === '' && minor === '') return '';
  const precedence = books.minorElsewhere ? PRECEDENCE_TEXT.replace(/\n3\. .*$/, `\n${MINOR_ELSEWHERE_TEXT}`) : PRECEDENCE_TEXT;
  const parts = [`<${NOTEBOOK_TAG}>`, precedence];
  if (rules.trim() !== '') parts.push('', '## 本会话规则(最高优先)', cutWithMark(rules, maxChars).text);
  if (minor !== '') parts.push('', '## 次要规则(自动归纳,冲突时让位)', cutWithMark(minor, maxChars).text);
  parts.push(`</${NOTEBOOK_TAG}>`);
  return parts.join('\n');
}
