// Writes diaries in the layouts parse.ts reads: parse(format(x)) gives back x's fields.
import { createHash } from 'node:crypto';
import { isDateString } from './dates.ts';
import { DiaryError } from './errors.ts';
import { normaliseNewlines, normaliseTags } from './parse.ts';

export interface DiaryFields {
  /** HH:MM; null/undefined writes no anchor. */
  time?: string | null;
  title: string;
  summary?: string;
  body?: string;
  tags?: readonly string[];
}

export interface MarkdownFields extends DiaryFields {
  id?: string | null;
  /** YYYY-MM-DD, written as created_at together with `time`. */
  date?: string | null;
}

/** Titles are single lines. */
export const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Accepts H:MM / HH:MM; returns zero-padded HH:MM or null when invalid. */
export function normaliseTime(time: string | null | undefined): string | null {
  if (!time) return null;
  const m = /^\s*(\d{1,2})\s*[:：]\s*(\d{2})\s*$/.exec(time);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h <= 23 && min <= 59 ? `${String(h).padStart(2, '0')}:${m[2]}` : null;
}

function tidyBlock(s: string | undefined): string {
  return normaliseNewlines(s ?? '').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

/** The .txt diary: `[HH:MM] title`, `> summary`, body, `Tag: a, b` — blank lines between. */
export function formatDiary(f: DiaryFields): string {
  const title = oneLine(f.title);
  const time = normaliseTime(f.time);
  const parts = [time ? `[${time}] ${title}` : title];
  const summary = normaliseNewlines(f.summary ?? '').trim();
  if (summary !== '') parts.push(summary.split('\n').map((l) => (l === '' ? '>' : `> ${l}`)).join('\n'));
  const body = tidyBlock(f.body);
  if (body !== '') parts.push(body);
  const tags = normaliseTags(f.tags ?? []);
  if (tags.length > 0) parts.push(`Tag: ${tags.join(', ')}`);
  return `${parts.join('\n\n')}\n`;
}

/** YAML double-quoted scalar (JSON string syntax is a subset of it). */
const q = (s: string): string => JSON.stringify(s);

/** The .md layout compatible with the legacy corpus: front matter, `# title`, body. */
export function formatMarkdown(f: MarkdownFields): string {
  const title = oneLine(f.title);
  const lines = ['---'];
  if (f.id) lines.push(`id: ${q(f.id)}`);
  lines.push(`title: ${q(title)}`);
  const summary = normaliseNewlines(f.summary ?? '').trim();
  if (summary !== '') lines.push(`description: ${q(summary)}`);
  const tags = normaliseTags(f.tags ?? []);
  if (tags.length > 0) lines.push(`tags: [${tags.map(q).join(', ')}]`);
  if (f.date && isDateString(f.date)) {
    const time = normaliseTime(f.time);
    lines.push(`created_at: ${q(time ? `${f.date}T${time}` : f.date)}`);
  }
  lines.push('---', '', `# ${title}`);
  const body = tidyBlock(f.body);
  if (body !== '') lines.push('', body);
  return `${lines.join('\n')}\n`;
}

const MAX_SLUG_CODEPOINTS = 40;
const MAX_SLUG_BYTES = 120;
// Control characters, characters illegal in Windows names, path separators, invisible format marks.
const UNSAFE_CHARS = /[\u0000-\u001f\u007f<>:"/\\|?*\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A file-name-safe slug of a title: keeps CJK, bounded in code points and UTF-8 bytes. */
export function slugify(title: string): string {
  // Cut early: only the first few dozen characters survive anyway, and it bounds the regex work.
  const cleaned = title
    .slice(0, MAX_SLUG_CODEPOINTS * 8)
    .normalize('NFC')
    .replace(LONE_SURROGATE, '')
    .replace(UNSAFE_CHARS, ' ')
    .replace(/[\s\u3000]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  let out = '';
  let bytes = 0;
  let count = 0;
  for (const ch of cleaned) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (count + 1 > MAX_SLUG_CODEPOINTS || bytes + b > MAX_SLUG_BYTES) break;
    out += ch;
    bytes += b;
    count++;
  }
  out = out.replace(/[-._]+$/g, '');
  return out === '' ? 'note' : out;
}

/** The 8 hex characters a file name carries for `id` (its prefix when hex, else a hash of it). */
export function shortId(id: string): string {
  const compact = id.toLowerCase().replace(/[^0-9a-z]/g, '');
  if (/^[0-9a-f]{8}/.test(compact)) return compact.slice(0, 8);
  return createHash('sha1').update(id).digest('hex').slice(0, 8);
}

/** `YYYY-MM-DD-<slug>-<id8>.<ext>` */
export function diaryFileName(date: string, title: string, id: string, ext: 'txt' | 'md' = 'txt'): string {
  if (!isDateString(date)) throw new DiaryError('invalid-input', `not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return `${date}-${slugify(title)}-${shortId(id)}.${ext}`;
}
