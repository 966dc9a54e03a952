// Picking segments of one memory by number: the third step of search → locate → detail, so a
// model that needs two paragraphs of a 15 000-character session import pays for two paragraphs.
import { EngramError } from '../errors.ts';
import type { Segment } from './split.ts';

export interface SegmentPick {
  /** The chosen segments in text order; every segment when none were asked for. */
  segments: Segment[];
  /** Their text; gaps between non-adjacent segments are marked with a line "…". */
  text: string;
  whole: boolean;
}

/**
 * The requested segments (0-based indexes as locate returns them), or the whole text when `wanted`
 * is absent or empty. An index that does not exist is an error naming the valid range.
 */
export function pickSegments(text: string, all: Segment[], wanted: number[] | undefined, title = 'this memory'): SegmentPick {
  if (wanted === undefined || wanted.length === 0) return { segments: all, text, whole: true };
  const bad = wanted.filter((i) => !Number.isInteger(i) || i < 0 || i >= all.length);
  if (bad.length > 0)
    throw new EngramError(
      'bad-segment',
      `no segment ${bad.join(', ')} in "${title}": it has ${all.length} segment${all.length === 1 ? '' : 's'}${all.length > 0 ? ` (0–${all.length - 1})` : ''}`,
    );
  const chosen = [...new Set(wanted)].sort((a, b) => a - b).map((i) => all[i]!);
  let out = '';
  chosen.forEach((s, i) => {
    if (i > 0 && chosen[i - 1]!.index !== s.index - 1) out += out.endsWith('\n') ? '…\n' : '\n…\n';
    out += s.text;
  });
  return { segments: chosen, text: out, whole: chosen.length === all.length };
}
