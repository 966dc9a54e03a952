// Cutting long text into parts without losing any of it: at line breaks first, then at sentence
// ends, and only a sentence longer than a whole part is cut mid-way (on code points). Pure.
import { splitLines } from './text.ts';

const SENTENCE_END = /(?<=[。！？!?；;])/u;

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
  if (Array.from(trimmed).length <= max) return [trimmed];
  const units: string[] = [];
  for (const line of splitLines(trimmed)) {
    if (Array.from(line).length <= max) {
      units.push(line);
      continue;
    }
    for (const sentence of line.split(SENTENCE_END)) {
      if (Array.from(sentence).length <= max) units.push(sentence);
      else units.push(...hardCut(sentence, max));
    }
  }
  const parts: string[] = [];
  let current = '';
  for (const unit of units) {
    const joined = current === '' ? unit : `${current}\n${unit}`;
    if (Array.from(joined).length <= max) current = joined;
    else {
      if (current.trim() !== '') parts.push(current.trim());
      current = unit;
    }
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}
