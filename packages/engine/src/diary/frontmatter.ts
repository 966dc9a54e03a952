// A deliberately tiny YAML front-matter reader: flat `key: value` maps with plain, quoted and block
// scalars and `[a, b]` / `- a` lists. That is all the legacy corpus uses, and a full YAML parser
// would bring surprises (type coercion of "no", dates, anchors) we do not want for metadata.

export type FrontMatterValue = string | string[];

export interface FrontMatter {
  data: Record<string, FrontMatterValue>;
  /** 0-based index of the first line after the closing `---`. */
  bodyStartLine: number;
  /**
   * Where each key's value was read from: its key line and the end (exclusive) of the lines its value
   * took (list items, block or folded lines). For a key written twice, the occurrence that was read
   * (the last). Lets a writer replace one key's lines and leave every other byte alone.
   */
  spans: Record<string, { line: number; end: number }>;
}

const KEY_RE = /^([A-Za-z0-9_\u3400-\u9fff][\w.\-\u3400-\u9fff]*)\s*:(?:\s+(.*)|\s*)$/u;
const LIST_ITEM_RE = /^\s*-(?:\s+(.*)|\s*)$/;

/** Reads a front-matter block at the top of `lines` (already newline-normalised); null when absent. */
export function parseFrontMatter(lines: string[]): FrontMatter | null {
  if (lines.length === 0 || lines[0]!.trimEnd() !== '---') return null;
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!.trimEnd();
    if (l === '---' || l === '...') {
      end = i;
      break;
    }
  }
  if (end < 0) return null;

  const data: Record<string, FrontMatterValue> = {};
  const spans: Record<string, { line: number; end: number }> = {};
  let i = 1;
  while (i < end) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#') || /^\s/.test(line)) {
      i++;
      continue; // blank, comment, or indentation we do not understand (nested maps)
    }
    const m = KEY_RE.exec(line);
    if (!m) {
      i++;
      continue;
    }
    const key = m[1]!;
    const rawValue = (m[2] ?? '').trim();
    const keyLine = i;
    i++;
    if (rawValue === '') {
      // Either a block list or an empty value.
      const items: string[] = [];
      while (i < end && LIST_ITEM_RE.test(lines[i]!)) {
        items.push(scalar((LIST_ITEM_RE.exec(lines[i]!)![1] ?? '').trim()));
        i++;
      }
      data[key] = items.length > 0 ? items : '';
      spans[key] = { line: keyLine, end: i };
      continue;
    }
    if (/^[|>][+-]?$/.test(rawValue)) {
      const block: string[] = [];
      while (i < end && (lines[i]!.trim() === '' || /^\s/.test(lines[i]!))) {
        block.push(lines[i]!);
        i++;
      }
      data[key] = blockScalar(block, rawValue.startsWith('|'));
      spans[key] = { line: keyLine, end: i };
      continue;
    }
    if (rawValue.startsWith('[') && rawValue.endsWith(']')) {
      data[key] = splitInlineList(rawValue.slice(1, -1)).map(scalar).filter((s) => s !== '');
      spans[key] = { line: keyLine, end: i };
      continue;
    }
    let value = scalar(rawValue);
    // Plain scalars may continue on indented lines (folded with a space).
    if (!rawValue.startsWith('"') && !rawValue.startsWith("'")) {
      while (i < end && /^\s+\S/.test(lines[i]!) && !LIST_ITEM_RE.test(lines[i]!)) {
        value += ` ${lines[i]!.trim()}`;
        i++;
      }
    }
    data[key] = value;
    spans[key] = { line: keyLine, end: i };
  }
  return { data, bodyStartLine: end + 1, spans };
}

/** A front-matter value as one string (lists joined with ", "). */
export function fmString(v: FrontMatterValue | undefined): string {
  if (v === undefined) return '';
  return Array.isArray(v) ? v.join(', ') : v;
}

function blockScalar(block: string[], literal: boolean): string {
  while (block.length > 0 && block[block.length - 1]!.trim() === '') block.pop();
  const indents = block.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const dedented = block.map((l) => (l.trim() === '' ? '' : l.slice(cut)));
  if (literal) return dedented.join('\n');
  // Folded: single newlines become spaces, blank lines become paragraph breaks.
  const out: string[] = [];
  let para: string[] = [];
  for (const l of dedented) {
    if (l === '') {
      if (para.length) out.push(para.join(' '));
      para = [];
    } else para.push(l.trim());
  }
  if (para.length) out.push(para.join(' '));
  return out.join('\n');
}

/** Splits `a, "b, c", 'd'` on commas that are outside quotes. */
function splitInlineList(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < s.length) {
        cur += s[++i]!;
      } else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
      cur += c;
    } else if (c === ',') {
      parts.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim() !== '' || parts.length > 0) parts.push(cur.trim());
  return parts;
}

/** One scalar: double-quoted (with escapes), single-quoted ('' = '), or plain (trailing ` #comment` dropped). */
export function scalar(raw: string): string {
  const s = raw.trim();
  if (s.startsWith('"')) return unescapeDouble(s);
  if (s.startsWith("'")) {
    const close = findSingleClose(s);
    return (close < 0 ? s.slice(1) : s.slice(1, close)).replace(/''/g, "'");
  }
  // A comment starts at " #"; found with a linear search (a /\s+#.*$/ replace backtracks on long blanks).
  const hash = /\s#/.exec(s);
  const plain = (hash ? s.slice(0, hash.index) : s).trim();
  return plain === '~' || plain === 'null' ? '' : plain;
}

function findSingleClose(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === "'") {
      if (s[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', a: '\x07', e: '\x1b', '0': '\0',
  '"': '"', '\\': '\\', '/': '/', ' ': ' ', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};

function unescapeDouble(s: string): string {
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') return out;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const e = s[++i]!;
    const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    if (hexLen > 0) {
      const hex = s.slice(i + 1, i + 1 + hexLen);
      const cp = /^[0-9a-fA-F]+$/.test(hex) && hex.length === hexLen ? parseInt(hex, 16) : NaN;
      if (Number.isFinite(cp) && cp <= 0x10ffff) {
        // \uD83D\uDE00 pairs arrive as two code units; fromCharCode keeps them paired.
        out += hexLen === 8 ? String.fromCodePoint(cp) : String.fromCharCode(cp);
        i += hexLen;
      } else out += e;
      continue;
    }
    out += SIMPLE_ESCAPES[e] ?? e;
  }
  return out; // unterminated: everything after the opening quote
}
