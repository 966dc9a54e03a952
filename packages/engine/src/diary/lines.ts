// A text as lines that keep their own terminators (and its BOM), so an edit of some lines leaves
// every other byte as it was — CRLF, LF, lone CR, mixed, a missing final newline. Pure.

/** A text as lines that remember their own terminators, so an edit touches only what it changes. */
export interface Lines {
  bom: string;
  text: string[];
  /** Terminator of each line as found ('' for a last line without one). */
  eol: string[];
  /** What inserted lines end with: the text's dominant terminator. */
  newline: string;
}

export function splitKeepingEnds(raw: string): Lines {
  const bom = raw.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  const body = raw.slice(bom.length);
  const text: string[] = [];
  const eol: string[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    text.push(body.slice(start, m.index));
    eol.push(m[0]);
    start = m.index + m[0].length;
  }
  if (start < body.length || text.length === 0) {
    text.push(body.slice(start));
    eol.push('');
  }
  return { bom, text, eol, newline: dominantNewline(eol) };
}

/**
 * The line ending a text mostly uses, from its lines' terminators: CRLF when it has as many as LF,
 * a lone CR (old Mac files) only when it has more than either, else LF. Pure.
 */
export function dominantNewline(terminators: readonly string[]): '\r\n' | '\n' | '\r' {
  let crlf = 0;
  let lf = 0;
  let cr = 0;
  for (const e of terminators) {
    if (e === '\r\n') crlf++;
    else if (e === '\n') lf++;
    else if (e === '\r') cr++;
  }
  if (cr > crlf && cr > lf) return '\r';
  return crlf > 0 && crlf >= lf ? '\r\n' : '\n';
}

export const joinLines = (l: Lines): string => l.bom + l.text.map((t, i) => t + l.eol[i]!).join('');

/** Replaces lines [from, to) by `lines` (each ended with the text's newline). */
export function splice(l: Lines, from: number, to: number, lines: string[]): void {
  const ends = lines.map(() => l.newline);
  // A text ending without a terminator keeps ending without one, whatever is put at its end.
  const openTail = l.text.length > 0 && l.eol[l.text.length - 1] === '';
  if (openTail && to === l.text.length && ends.length > 0) {
    if (from === to) l.eol[from - 1] = l.newline;
    ends[ends.length - 1] = '';
  }
  l.text.splice(from, to - from, ...lines);
  l.eol.splice(from, to - from, ...ends);
}


const isBlankLine = (s: string): boolean => s.trim() === '';

/** Index of the closing `---` of a front matter opened on line 0, or -1. */
export function frontMatterEnd(l: Lines): number {
  if (l.text[0]?.trimEnd() !== '---') return -1;
  for (let i = 1; i < l.text.length; i++) if (l.text[i]!.trimEnd() === '---') return i;
  return -1;
}

/** End (exclusive) of a front-matter key's value: its continuation lines (indented or list items). */
export function valueEnd(l: Lines, keyLine: number, close: number): number {
  let i = keyLine + 1;
  while (i < close && (isBlankLine(l.text[i]!) || /^\s/.test(l.text[i]!) || /^-(\s|$)/.test(l.text[i]!))) i++;
  // Blank lines after the value belong to the layout, not to the value.
  while (i > keyLine + 1 && isBlankLine(l.text[i - 1]!)) i--;
  return i;
}


/**
 * `edited` (a whole text from an editor, which gives back LF only and may drop a BOM) with the
 * layout of `original` put back: its BOM, and the terminator of every line — lines of the
 * unchanged beginning and end keep theirs, a changed line takes the one of the line it replaces,
 * lines added beyond those get the file's dominant one. Text that carries its own CRs was laid out by the caller and stays as given.
 */
export function withLayoutOf(original: string, edited: string): string {
  const o = splitKeepingEnds(original);
  const e = splitKeepingEnds(edited);
  const bom = e.bom || o.bom;
  if (edited.includes('\r') || o.eol.every((x) => x === '\n' || x === '')) return bom + joinLines({ ...e, bom: '' });
  let prefix = 0;
  while (prefix < e.text.length && prefix < o.text.length && e.text[prefix] === o.text[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < e.text.length - prefix &&
    suffix < o.text.length - prefix &&
    e.text[e.text.length - 1 - suffix] === o.text[o.text.length - 1 - suffix]
  ) suffix++;
  for (let i = 0; i < e.text.length; i++) {
    if (e.eol[i] === '') continue; // the editor's choice of a final newline stands
    // Unchanged beginning and end: the same line's ending. Changed lines in between: the ending of
    // the line they replace (position by position), and new lines past those the dominant one.
    const middleEnd = o.text.length - suffix;
    const j = i < prefix ? i : i >= e.text.length - suffix ? o.text.length - (e.text.length - i) : i < middleEnd ? i : -1;
    e.eol[i] = j >= 0 && o.eol[j] !== '' ? o.eol[j]! : o.newline;
  }
  return bom + joinLines({ ...e, bom: '' });
}
