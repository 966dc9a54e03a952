// What is embedded for a chunk besides its body: the memory's title, summary and tags, one line
// each, in front. The body of a diary often never names its subject (the title does), and a
// question usually does; the summary is the writer's (or the summary model's) own statement of
// what matters. A summary cut from the body itself — the parser's fallback when a memory has none
// (`none`: its first 160 characters) or the rule summary (`rule`: its leading sentences) — adds
// nothing the body does not say, so it is left out: embedding it made every such chunk ≈ 160 tokens
// longer (more of them over the model's 512-token window) for the body's opening twice. Pure.

export interface DocContextFields {
  title: string;
  summary: string;
  /** Where the summary came from (diary/meta.ts SummarySource); absent = written by someone. */
  summarySource?: string | null;
  tags: string[];
}

/** Summary sources that are a copy of the body's own opening. */
const FROM_BODY = new Set(['none', 'rule']);

/** The lines put before each chunk of this document ('' when there is nothing to add). */
export function embeddingContext(d: DocContextFields): string {
  const lines: string[] = [];
  if (d.title.trim()) lines.push(d.title.trim());
  if (d.summary.trim() && !FROM_BODY.has(d.summarySource ?? '')) lines.push(d.summary.trim());
  const tags = (d.tags ?? []).map((t) => t.trim()).filter(Boolean);
  if (tags.length > 0) lines.push(tags.join(', '));
  return lines.join('\n');
}

/** The text embedded for a chunk: context lines, a blank line, the body — unless the body already starts with them. */
export function embeddedText(context: string, body: string): string {
  if (!context) return body;
  if (body.startsWith(context)) return body;
  return `${context}\n\n${body}`;
}
