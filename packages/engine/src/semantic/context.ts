// What is embedded for a chunk besides its body: the memory's title, summary and tags, one line
// each, in front. The body of a diary often never names its subject (the title does), and a
// question usually does; the summary is the writer's own statement of what matters. Pure.

export interface DocContextFields {
  title: string;
  summary: string;
  tags: string[];
}

/** The lines put before each chunk of this document ('' when there is nothing to add). */
export function embeddingContext(d: DocContextFields): string {
  const lines: string[] = [];
  if (d.title.trim()) lines.push(d.title.trim());
  if (d.summary.trim()) lines.push(d.summary.trim());
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
