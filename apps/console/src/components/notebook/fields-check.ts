// The structured editor's checks while typing (pure): what would make the engine read the fields
// otherwise than as typed, tied to the field it concerns. The server reads the saved text back with
// the engine's own rules and refuses anything these miss (memories.saveFields), so these only have
// to be quick and right for the common cases.
import type { EditorKey } from '../../client/messages-editor.ts';
import { META_LINE, TAG_LINE } from './diary-check.ts';

export interface EditorFields {
  title: string;
  /** As typed: separated by , ， 、 ; ； */
  tags: string;
  body: string;
  /** The Meta line's kind ('' = none) and goal; absent where a page does not edit them. */
  kind?: string;
  goal?: string;
}

export type FieldName = 'title' | 'tags' | 'body' | 'kind';
/**
 * How the file holds the fields (memories.fields): `lines` — a .txt, or a .md without front matter:
 * title line, body, Tag line, Meta line; `front-matter` — a .md whose title, tags, kind and goal are
 * YAML keys, where a trailing Tag line still adds tags and a Meta-like line is only text.
 */
export type FieldsLayout = 'lines' | 'front-matter';
export type FieldProblems = Partial<Record<FieldName, EditorKey>>;

/** The tag list of the tags field (the engine splits on the same marks and cleans each tag again). */
export const tagList = (tags: string): string[] => [...new Set(tags.split(/[,，、;；]/).map((t) => t.trim()).filter(Boolean))];

export const sameFields = (a: EditorFields, b: EditorFields): boolean =>
  a.title.trim() === b.title.trim() &&
  tagList(a.tags).join('\n') === tagList(b.tags).join('\n') &&
  a.body.replace(/\s+$/, '') === b.body.replace(/\s+$/, '') &&
  (a.kind ?? '').trim() === (b.kind ?? '').trim() &&
  (a.goal ?? '').trim() === (b.goal ?? '').trim();

/** Problems of `f`; `base` is what the file held (a memory without a title may stay without one). */
export function fieldProblems(f: EditorFields, base: EditorFields, layout: FieldsLayout = 'lines'): FieldProblems {
  const out: FieldProblems = {};
  const title = f.title.trim();
  const lastLine = f.body.split(/\r\n|\n|\r/).filter((l) => l.trim() !== '').at(-1) ?? '';
  if (title === '' && base.title.trim() !== '') out.title = 'edit.problem.title-empty';
  if (layout === 'front-matter') {
    // The engine adds an old-style Tag line closing the body to the front matter's tags.
    if (TAG_LINE.test(lastLine)) out.body = 'edit.problem.body-reads-as-tags-md';
    return out;
  }
  if (!out.title && (/^>/.test(title) || TAG_LINE.test(title))) out.title = 'edit.problem.title-reads-as-other';
  // With tags, the Tag line comes after the body and these lines stay body text.
  if (tagList(f.tags).length === 0 && META_LINE.test(lastLine)) out.body = 'edit.problem.body-reads-as-meta';
  else if (tagList(f.tags).length === 0 && TAG_LINE.test(lastLine)) out.body = 'edit.problem.body-reads-as-tags';
  return out;
}
