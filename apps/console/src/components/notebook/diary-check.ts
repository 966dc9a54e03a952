// Checks of a memory's text before saving that a person can act on (pure). The diary parser
// (engine diary/parse.ts) reads tags only from the last line (before an optional Meta line): text
// typed after the Tag line turns that line into body text and the memory silently loses its tags.

/** The Tag line as the parser recognises it (`Tag: a, b` / `Tags：a、b` / `标签: a；b`). */
export const TAG_LINE = /^\s*(?:tags?|标签)\s*[:：]/i;
export const META_LINE = /^\s*(?:meta|元数据)\s*[:：]/i;

export type DiaryProblem = { kind: 'text-after-tags'; line: number };

/** The first problem of `raw`, or null. `line` is 1-based: the first line after the Tag line with text. */
export function diaryProblem(raw: string): DiaryProblem | null {
  const lines = raw.split(/\r\n|\n|\r/);
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  if (last >= 0 && META_LINE.test(lines[last]!)) {
    last--;
    while (last >= 0 && lines[last]!.trim() === '') last--;
  }
  if (last < 0 || TAG_LINE.test(lines[last]!)) return null;
  for (let i = last - 1; i >= 0; i--) {
    if (!TAG_LINE.test(lines[i]!)) continue;
    let after = i + 1;
    while (lines[after]!.trim() === '') after++;
    return { kind: 'text-after-tags', line: after + 1 };
  }
  return null;
}
