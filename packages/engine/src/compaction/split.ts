// Cutting long text into parts without losing any of it: at line breaks first, then at sentence
// ends, and only a sentence longer than a whole part is cut mid-way (on code points). Pure.
import { charLength, splitLines } from './text.ts';

const SENTENCE_END = /(?<=[。！？!?；;])/u;

/** Whether `text` has at most `max` code points, counting no further than that (a 2 MB line is not spread into an array to learn it is long). */
function fitsIn(text: string, max: number): boolean {
  if (text.length <= max) return true;
  let n = 0;
  for (const _ of text) if (++n > max) return false;
  return true;
}

function hardCut(text: string, max: number): string[] {
  const chars = Array.from(text);
  const parts: string[] = [];
  for (let i = 0; i < chars.length; i += max) parts.push(chars.slice(i, i + max).join(''));
  return parts;
}

/** Pieces no longer than `max` code points that, joined in order, hold all of the text's content. */
export function splitByLength(text: string, max: number): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (fitsIn(trimmed, max)) return [trimmed];
  const units: string[] = [];
  for (const line of splitLines(trimmed)) {
    if (fitsIn(line, max)) {
      units.push(line);
      continue;
    }
    for (const sentence of line.split(SENTENCE_END)) {
      if (fitsIn(sentence, max)) units.push(sentence);
      else units.push(...hardCut(sentence, max));
    }
  }
  const parts: string[] = [];
  // Lengths are carried, not counted again on every join: counting the growing part each time made a
  // 2 MB summary of short sentences take seconds (a pass over the part per sentence).
  let current = '';
  let currentLength = 0;
  for (const unit of units) {
    const unitLength = charLength(unit);
    const joinedLength = current === '' ? unitLength : currentLength + 1 + unitLength;
    if (joinedLength <= max) {
      current = current === '' ? unit : `${current}\n${unit}`;
      currentLength = joinedLength;
    } else {
      if (current.trim() !== '') parts.push(current.trim());
      current = unit;
      currentLength = unitLength;
    }
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}
