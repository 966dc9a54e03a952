// Splits one long memory into segments a model can ask for by number. A `#`/`##` heading is the
// one reliable topic boundary, so sections come first; a long section is cut at paragraph, line
// or sentence ends, and a scrap of a section (a lone code fence, a one-line heading) joins a
// neighbour rather than becoming a segment nobody would pick. Segments partition the text:
// concatenated in order they give it back byte for byte.

export interface Segment {
  /** 0-based position in the memory. */
  index: number;
  /** The section heading without the #s; a cut section's pieces are numbered "heading (2/3)". */
  heading: string;
  /** Offsets into the text, end exclusive. */
  start: number;
  end: number;
  text: string;
}

export interface SplitOptions {
  /** A section longer than this is cut (at paragraph, line or sentence ends). Default 600. */
  maxChars: number;
  /** A piece shorter than this joins a neighbour when the neighbour stays within maxChars + minChars. Default 80. */
  minChars: number;
}

export const DEFAULT_SPLIT: SplitOptions = { maxChars: 600, minChars: 80 };

interface Piece {
  start: number;
  end: number;
  heading: string;
  /** Which section the piece came from (pieces of one section are numbered at the end). */
  section: number;
}

const HEADING = /^ {0,3}(#{1,2})[ \t]+(.+?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Sections: the text before the first heading, then one per `#`/`##` heading outside code fences. */
function sections(text: string): Piece[] {
  const out: Piece[] = [];
  let current: Piece = { start: 0, end: 0, heading: '', section: 0 };
  let fence: string | null = null;
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl === -1 ? text.length : nl + 1;
    const line = text.slice(at, lineEnd).replace(/\r?\n$/, '');
    const f = FENCE.exec(line);
    if (f) {
      if (fence === null) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (f[1]!.startsWith(fence)) fence = null;
    } else if (fence === null) {
      const h = HEADING.exec(line);
      if (h && at > current.start) {
        current.end = at;
        out.push(current);
        current = { start: at, end: 0, heading: h[2]!.trim(), section: out.length };
      } else if (h) current.heading = h[2]!.trim();
    }
    at = lineEnd;
  }
  current.end = text.length;
  out.push(current);
  return out;
}

// Break preferences inside a long section, best first: blank line, line end, sentence end.
const BREAKS: RegExp[] = [/\n[ \t]*\n/g, /\n/g, /[。！？!?；;…]+["'”’」』)）]?|\.(?=\s)/g];

/** Where to end a piece that starts at `from`: the best break in (from + maxChars/2, from + maxChars]. */
function cutPoint(text: string, from: number, limit: number, maxChars: number): number {
  const hi = Math.min(limit, from + maxChars);
  const lo = from + Math.floor(maxChars / 2);
  const window = text.slice(from, hi);
  for (const pattern of BREAKS) {
    let best = -1;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(window); m !== null; m = pattern.exec(window)) {
      const end = from + m.index + m[0].length;
      if (end > lo && end <= hi) best = end;
    }
    if (best > 0) return best;
  }
  // No break at all: a hard cut, never between the halves of a surrogate pair.
  const code = text.charCodeAt(hi - 1);
  return code >= 0xd800 && code <= 0xdbff && hi - 1 > from ? hi - 1 : hi;
}

function cutSection(text: string, section: Piece, maxChars: number): Piece[] {
  if (section.end - section.start <= maxChars) return [section];
  const pieces: Piece[] = [];
  let from = section.start;
  while (section.end - from > maxChars) {
    const to = cutPoint(text, from, section.end, maxChars);
    pieces.push({ ...section, start: from, end: to });
    from = to;
  }
  pieces.push({ ...section, start: from, end: section.end });
  return pieces;
}

/** "heading (i/n)" for the pieces of a section that ended up in more than one segment. */
function numberPieces(pieces: Piece[]): Piece[] {
  const total = new Map<number, number>();
  for (const p of pieces) total.set(p.section, (total.get(p.section) ?? 0) + 1);
  const seen = new Map<number, number>();
  return pieces.map((p) => {
    const n = total.get(p.section)!;
    if (n === 1) return p;
    const i = (seen.get(p.section) ?? 0) + 1;
    seen.set(p.section, i);
    return { ...p, heading: `${p.heading || '…'} (${i}/${n})` };
  });
}

/** Joins pieces shorter than minChars to the previous (else the next) piece when that one stays small enough. */
function mergeScraps(pieces: Piece[], opts: SplitOptions): Piece[] {
  const bound = opts.maxChars + opts.minChars;
  const out: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i]!;
    const len = p.end - p.start;
    const prev = out[out.length - 1];
    if (len < opts.minChars && prev && p.end - prev.start <= bound) {
      // A heading-only scrap keeps its name visible in the segment it joins.
      prev.end = p.end;
      if (!prev.heading && p.heading) prev.heading = p.heading;
      continue;
    }
    const next = pieces[i + 1];
    if (len < opts.minChars && next && next.end - p.start <= bound) {
      next.start = p.start;
      if (p.heading && !next.heading.startsWith(p.heading)) next.heading = next.heading ? `${p.heading} / ${next.heading}` : p.heading;
      continue;
    }
    out.push({ ...p });
  }
  return out;
}

/**
 * Segments of a memory's text: sections by `#`/`##` heading, long sections cut near maxChars,
 * scraps merged. Every segment is at most maxChars + minChars long (a hard cut when a section has
 * no break at all), and together they cover the text exactly.
 */
export function splitSegments(text: string, options: Partial<SplitOptions> = {}): Segment[] {
  const opts = { ...DEFAULT_SPLIT, ...options };
  if (text.length === 0) return [];
  const pieces = numberPieces(mergeScraps(sections(text).flatMap((s) => cutSection(text, s, opts.maxChars)), opts));
  return pieces.map((p, index) => ({ index, heading: p.heading, start: p.start, end: p.end, text: text.slice(p.start, p.end) }));
}
