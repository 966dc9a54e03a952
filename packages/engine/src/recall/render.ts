// Rendering recall hits into the text injected into a conversation. Pure.
import type { EngramConfig } from '../config/schema.ts';
import { neutraliseDelimiters } from '../security/delimiters.ts';

type InjectConfig = EngramConfig['inject'];

export interface RenderItem {
  date: string;
  title: string;
  text: string;
}

/** Block names become XML-ish tags: keep [a-z0-9-_], start with a letter. */
export function sanitizeTagName(name: string): string {
  const cleaned = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^[^a-z]+/, '').replace(/-+$/, '');
  return cleaned.length > 0 ? cleaned.slice(0, 64) : 'engram-recall';
}

export function formatItemPrefix(template: string, n: number, item: Pick<RenderItem, 'date' | 'title'>): string {
  return template.replace(/\{n\}/g, String(n)).replace(/\{date\}/g, item.date).replace(/\{title\}/g, item.title);
}

/**
 * Keeps items in order while their texts fit in maxChars; the first item that does not fit is cut
 * (when at least `minTail` chars remain) and everything after it is dropped.
 */
export function fitToBudget<T extends { text: string }>(items: T[], maxChars: number, minTail = 120): { kept: T[]; used: number; truncated: number; dropped: number } {
  const kept: T[] = [];
  let used = 0;
  let truncated = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const len = item.text.length;
    if (used + len <= maxChars) {
      kept.push(item);
      used += len;
      continue;
    }
    const room = maxChars - used;
    if (room >= minTail) {
      kept.push({ ...item, text: `${item.text.slice(0, room - 1)}…` });
      used += room;
      truncated = 1;
    }
    return { kept, used, truncated, dropped: items.length - kept.length };
  }
  return { kept, used, truncated, dropped: 0 };
}

export function renderRecallBlock(items: RenderItem[], cfg: InjectConfig, attrs: Record<string, string> = {}): string {
  if (items.length === 0) return '';
  const tag = sanitizeTagName(cfg.blockName);
  const attrText = Object.entries(attrs)
    .map(([k, v]) => ` ${k.replace(/[^a-zA-Z0-9_-]/g, '')}="${v.replace(/["<>&]/g, '')}"`)
    .join('');
  const body: string[] = [];
  if (cfg.header) body.push(cfg.header);
  if (cfg.disclaimer) body.push(cfg.disclaimer);
  items.forEach((item, i) => {
    body.push('', formatItemPrefix(cfg.itemPrefix, i + 1, item), item.text.trim());
  });
  // A memory's own words cannot close this block or open another (security/delimiters.ts). The
  // body is neutralised as a whole: a title ending in "<" and a text starting with the tag's name
  // make a tag only once they are joined.
  return [`<${tag}${attrText}>`, neutraliseDelimiters(body.join('\n'), [tag]), `</${tag}>`].join('\n');
}
