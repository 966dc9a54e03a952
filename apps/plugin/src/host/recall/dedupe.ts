// Message-mode dedupe. An injected message stays in the history for good, so before a recall block
// is added we drop what the model can already see: whole blocks (same text), and single items
// (same date + title) even when the rest of the batch changed. Pure.
import { createHash } from 'node:crypto';
import type { UserMessage } from '../core/host-types.ts';
import { sourceOf, textOfContent } from '../sessions/view.ts';

export interface ItemIdentity {
  date: string;
  title: string;
}

export const itemKey = (item: ItemIdentity): string => `${item.date}\u0001${item.title}`;

/**
 * A block's identity: its text with the opening tag's attributes removed (they carry the trigger,
 * which differs between otherwise identical blocks) and whitespace runs collapsed.
 */
export function blockKey(text: string): string {
  const normalised = text
    .trim()
    .replace(/^<([A-Za-z][\w-]*)(?:\s[^>]*)?>/, '<$1>')
    .replace(/\s+/g, ' ');
  return createHash('sha1').update(normalised).digest('hex');
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A matcher for one rendered item prefix line (`[{n}] {date} · {title}`), or null when the template
 * cannot identify an item (no {date} or no {title}): such blocks cannot be parsed back.
 */
export function itemPrefixPattern(template: string): { regex: RegExp; date: number; title: number } | null {
  if (!template.includes('{date}') || !template.includes('{title}')) return null;
  const parts = template.trim().split(/(\{n\}|\{date\}|\{title\})/);
  let group = 0;
  let date = -1;
  let title = -1;
  const body = parts
    .map((part, i) => {
      if (part === '{n}') return '\\d+';
      if (part === '{date}') {
        date = ++group;
        return '(.*?)';
      }
      if (part === '{title}') {
        title = ++group;
        // The last placeholder on the line takes the rest of it.
        return parts.slice(i + 1).some((p) => p === '{n}' || p === '{date}') ? '(.+?)' : '(.+)';
      }
      return escapeRegExp(part);
    })
    .join('');
  return { regex: new RegExp(`^${body}$`), date, title };
}

/** Items of a rendered block read back from its prefix lines; null when the template cannot tell. */
export function parseItemsFromText(text: string, template: string): ItemIdentity[] | null {
  const pattern = itemPrefixPattern(template);
  if (!pattern) return null;
  const items: ItemIdentity[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = pattern.regex.exec(line.trim());
    if (!m) continue;
    const date = (m[pattern.date] ?? '').trim();
    const title = (m[pattern.title] ?? '').trim();
    if (date !== '' || title !== '') items.push({ date, title });
  }
  return items;
}

function itemsFromSource(value: unknown): ItemIdentity[] | null {
  if (!Array.isArray(value)) return null;
  const items: ItemIdentity[] = [];
  for (const v of value) {
    const item = v as Partial<ItemIdentity> | null;
    if (item && typeof item.date === 'string' && typeof item.title === 'string') items.push({ date: item.date, title: item.title });
  }
  return items;
}

export interface ShownRecall {
  blockKeys: Set<string>;
  itemKeys: Set<string>;
  /** Items whose prefix line is in a block but that do not count as shown (cut short by the budget). */
  partKeys: Set<string>;
  /** How many recall blocks the model sees (what maxMessages caps). */
  blocks: number;
}

/**
 * What earlier recall messages already show. Items come from the message's own metadata
 * (`source.items`); blocks written before that metadata existed are parsed back from their prefix
 * lines, with the current template and then the default one.
 */
export function shownRecall(messages: readonly UserMessage[], templates: readonly string[]): ShownRecall {
  const shown: ShownRecall = { blockKeys: new Set(), itemKeys: new Set(), partKeys: new Set(), blocks: 0 };
  for (const message of messages) {
    const text = textOfContent(message.content);
    shown.blocks++;
    shown.blockKeys.add(blockKey(text));
    const declared = itemsFromSource(sourceOf(message)?.items);
    let inText: ItemIdentity[] | null = null;
    for (const template of templates) {
      const parsed = parseItemsFromText(text, template);
      if (parsed && parsed.length > 0) {
        inText = parsed;
        break;
      }
    }
    for (const item of declared ?? inText ?? []) shown.itemKeys.add(itemKey(item));
    for (const item of inText ?? []) if (!shown.itemKeys.has(itemKey(item))) shown.partKeys.add(itemKey(item));
  }
  for (const key of shown.itemKeys) shown.partKeys.delete(key);
  return shown;
}

/** Candidates the model has not seen yet, in order. */
export function unseenItems<T extends ItemIdentity>(candidates: readonly T[], shown: ShownRecall): T[] {
  return candidates.filter((c) => !shown.itemKeys.has(itemKey(c)));
}

/**
 * `maxMessages`: 0 means unlimited (someone typing 0 means "do not cap me", not "never inject");
 * missing, null, '' or garbage means the default; anything else is clamped to 0..200.
 */
export function normaliseMaxMessages(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return normaliseMaxMessages(fallback, 3);
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return normaliseMaxMessages(fallback, 3);
  const clamped = Math.min(200, Math.max(0, Math.floor(n)));
  return clamped === 0 ? Number.POSITIVE_INFINITY : clamped;
}
