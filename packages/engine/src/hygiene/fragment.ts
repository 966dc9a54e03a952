// Is a draft a memory at all? A half sentence, one bullet of an outline or a bare heading is not
// something anyone can use later; it is refused with a message that says what a memory needs.
// Pure.
import { normaliseNewlines } from '../diary/parse.ts';

export type FragmentReason = 'too-short' | 'list-line' | 'heading';

export interface Fragment {
  reason: FragmentReason;
  /** For the writer (the model or a person): what is wrong and what a memory needs. */
  message: string;
  /** Non-whitespace characters of summary + body. */
  chars: number;
}

export interface FragmentDraft {
  title: string;
  summary: string;
  body: string;
  /** No title was given: the title is the text's first line, so that line is the content too. */
  titleFromContent?: boolean;
}

const HEADING_RE = /^\s{0,3}#{1,6}(?:\s+\S.*)?$/;
const LIST_LINE_RE = /^\s*(?:[-*+•·]|\d{1,3}[.)、．]|[（(]\d{1,3}[)）])\s*\S/;

const NEEDS = '一条记忆要能单独看懂:写清是什么事、结论或决定是什么、为什么(或在什么条件下成立)。';

/** Characters that carry content (whitespace does not). */
export const contentChars = (s: string): number => Array.from(s.replace(/\s+/gu, '')).length;

const clip = (s: string, n = 40): string => {
  const cps = Array.from(s.trim());
  return cps.length <= n ? cps.join('') : `${cps.slice(0, n).join('')}…`;
};

/** The reason a draft is a fragment, or null when it can be a memory. */
export function fragmentOf(draft: FragmentDraft, minChars: number): Fragment | null {
  const text = normaliseNewlines([draft.summary, draft.body].filter((s) => s.trim() !== '').join('\n'));
  let lines = text.split('\n').filter((l) => l.trim() !== '');
  // `- 买牛奶` written alone becomes the title of an empty entry: judge the line that was written.
  if (lines.length === 0 && draft.titleFromContent && draft.title.trim() !== '') lines = [draft.title];
  const chars = contentChars(text);
  if (lines.length > 0) {
    const rest = lines.filter((l) => !HEADING_RE.test(l));
    if (rest.length === 0) {
      return { reason: 'heading', chars, message: `整条内容只有标题「${clip(lines.join(' / '))}」,没有正文,没有存。${NEEDS}` };
    }
    if (rest.length === 1 && LIST_LINE_RE.test(rest[0]!)) {
      return { reason: 'list-line', chars, message: `整条内容只是一行清单项「${clip(rest[0]!)}」,这是提纲的碎片,不是一条记忆,没有存。把它写成完整的话:${NEEDS}` };
    }
  }
  if (chars < minChars) {
    const what = chars === 0 ? '只有标题,没有正文和摘要' : `正文和摘要合计只有 ${chars} 个字(至少 ${minChars} 个)`;
    return { reason: 'too-short', chars, message: `内容太短:${what},没有存。${NEEDS}` };
  }
  return null;
}
