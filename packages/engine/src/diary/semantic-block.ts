// Semantic write blocks: the model writes a diary straight into its reply instead of repeating it
// as tool-call JSON.
//
//   <<<DailyNoteStart>>>
//   command: create            | command: update
//   title: …                   | target: verbatim passage (≥ 15 字, may span lines)
//   folder: … (optional)       | replace: new text (may span lines; empty = delete)
//   tags: a, b (optional)      |
//                              |
//   [HH:MM] diary text …       |
//   <<<DailyNoteEnd>>>
//
// Parsing never throws: a malformed block becomes an error entry so the caller can tell the model.
import { createHash } from 'node:crypto';
import { normaliseNewlines, splitTags } from './parse.ts';

export type NoteBlock =
  | {
      command: 'create';
      index: number;
      title: string;
      folder?: string;
      tags?: string[];
      /** Optional `date: YYYY-MM-DD` / `time: HH:MM` header lines, passed through as written. */
      date?: string;
      time?: string;
      content: string;
      hash: string;
    }
  | { command: 'update'; index: number; target: string; replace: string; hash: string };

export interface NoteBlockParse {
  blocks: NoteBlock[];
  errors: { index: number; message: string }[];
}

export interface NoteBlockOptions {
  /** Skip markers inside ``` / ~~~ fences (examples being shown, not written). Default true. */
  ignoreFenced?: boolean;
}

const START_RE = /<<<\s*DailyNoteStart\s*>>>/gi;
const END_RE = /<<<\s*DailyNoteEnd\s*>>>/gi;
const HEADER_RE = /^\s*([A-Za-z_]+)\s*[:：]\s?(.*)$/;
/** Header keys we understand; any other `word: …` line is already the diary text. */
const HEADER_KEYS = new Set(['command', 'title', 'folder', 'category', 'tags', 'tag', 'date', 'time', 'target']);
const REPLACE_RE = /^\s*(replace|replacement)\s*[:：]\s?(.*)$/i;

/** sha1 of the block text with line endings and trailing spaces normalised: the idempotency key. */
export function blockHash(inner: string): string {
  const norm = normaliseNewlines(inner)
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')
    .trim();
  return createHash('sha1').update(norm).digest('hex');
}

/** [start, end) ranges of fenced code blocks (an unclosed fence runs to the end). */
function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const re = /^[ \t]{0,3}(`{3,}|~{3,})[^\n]*$/gm;
  let open: { at: number; fence: string } | null = null;
  for (const m of text.matchAll(re)) {
    const fence = m[1]!;
    if (!open) open = { at: m.index!, fence };
    else if (fence[0] === open.fence[0] && fence.length >= open.fence.length && m[0].trim() === fence) {
      ranges.push([open.at, m.index! + m[0].length]);
      open = null;
    }
  }
  if (open) ranges.push([open.at, text.length]);
  return ranges;
}

interface Marker {
  kind: 'start' | 'end';
  at: number;
  len: number;
}

export function parseNoteBlocks(text: string, options: NoteBlockOptions = {}): NoteBlockParse {
  const out: NoteBlockParse = { blocks: [], errors: [] };
  if (typeof text !== 'string' || text === '') return out;
  const fenced = options.ignoreFenced === false ? [] : fencedRanges(text);
  const inFence = (at: number): boolean => fenced.some(([s, e]) => at >= s && at < e);

  const markers: Marker[] = [];
  for (const m of text.matchAll(START_RE)) if (!inFence(m.index!)) markers.push({ kind: 'start', at: m.index!, len: m[0].length });
  for (const m of text.matchAll(END_RE)) if (!inFence(m.index!)) markers.push({ kind: 'end', at: m.index!, len: m[0].length });
  markers.sort((a, b) => a.at - b.at);

  let index = 0;
  let open: Marker | null = null;
  for (const mk of markers) {
    if (mk.kind === 'start') {
      if (open) out.errors.push({ index: index++, message: 'block not closed with <<<DailyNoteEnd>>> before the next <<<DailyNoteStart>>>' });
      open = mk;
    } else if (open) {
      const inner = text.slice(open.at + open.len, mk.at);
      const parsed = parseBlock(inner, index);
      if ('message' in parsed) out.errors.push(parsed);
      else out.blocks.push(parsed);
      index++;
      open = null;
    }
    // An end marker without a start is prose about the format, not a block.
  }
  if (open) out.errors.push({ index, message: 'block not closed with <<<DailyNoteEnd>>>' });
  return out;
}

function parseBlock(inner: string, index: number): NoteBlock | { index: number; message: string } {
  const lines = normaliseNewlines(inner).split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const hash = blockHash(inner);

  // Header: `key: value` lines up to the first blank line (or the first line that is not a header —
  // a forgotten blank line should not swallow the diary's first line).
  const header = new Map<string, string>();
  let commandSeen = false;
  let updateStart = -1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') break;
    const m = HEADER_RE.exec(line);
    if (!m || !HEADER_KEYS.has(m[1]!.toLowerCase())) break;
    const key = m[1]!.toLowerCase();
    if (key === 'command') commandSeen = true;
    if (key === 'target') {
      updateStart = i;
      break; // target / replace are free text: parsed separately below
    }
    if (!header.has(key)) header.set(key, m[2]!.trim());
  }

  let command = (header.get('command') ?? '').toLowerCase();
  if (!commandSeen) command = updateStart >= 0 ? 'update' : header.has('title') ? 'create' : '';
  if (command === 'write' || command === 'new') command = 'create';
  if (command === 'edit') command = 'update';

  if (command === 'update') {
    if (updateStart < 0) return { index, message: 'update block has no "target:" line (the verbatim passage to replace)' };
    return parseUpdate(lines, updateStart, index, hash);
  }
  if (command !== 'create') {
    return { index, message: command === '' ? 'block has no "command:" line (create or update)' : `unknown command "${header.get('command')}" (expected create or update)` };
  }
  if (updateStart >= 0) return { index, message: 'create block has a "target:" line; use command: update to change an existing diary' };

  const title = (header.get('title') ?? '').trim();
  if (title === '') return { index, message: 'create block has no "title:" line' };
  const content = lines.slice(i).join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  if (content.trim() === '') return { index, message: `create block "${title}" has no diary text after the header` };

  const block: NoteBlock = { command: 'create', index, title, content, hash };
  const folder = (header.get('folder') ?? header.get('category') ?? '').trim();
  if (folder !== '') block.folder = folder;
  const tags = splitTags(header.get('tags') ?? header.get('tag') ?? '');
  if (tags.length > 0) block.tags = tags;
  const date = (header.get('date') ?? '').trim();
  if (date !== '') block.date = date;
  const time = (header.get('time') ?? '').trim();
  if (time !== '') block.time = time;
  return block;
}

function parseUpdate(lines: string[], targetLine: number, index: number, hash: string): NoteBlock | { index: number; message: string } {
  const first = HEADER_RE.exec(lines[targetLine]!)![2]!;
  const targetLines = [first];
  let j = targetLine + 1;
  while (j < lines.length && !REPLACE_RE.test(lines[j]!)) targetLines.push(lines[j++]!);
  if (j >= lines.length) return { index, message: 'update block has no "replace:" line (write "replace:" with nothing after it to delete the passage)' };
  const target = unquoteEmpty(targetLines.join('\n').trim());
  if (target === '') return { index, message: 'update block has an empty "target:"' };

  const inline = REPLACE_RE.exec(lines[j]!)![2]!;
  const rest = lines.slice(j + 1);
  let replace: string;
  if (inline.trim() === '') replace = rest.join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  else replace = [inline, ...rest].join('\n').trimEnd();
  replace = unquoteEmpty(replace.trim() === '' ? '' : replace.replace(/^\s+/, ''));
  return { command: 'update', index, target, replace, hash };
}

/** `""` / `''` written to mean "empty". */
const unquoteEmpty = (s: string): string => (s.trim() === '""' || s.trim() === "''" ? '' : s);
