// Filters on a memory search (category, tag, date range, workspace, kind, a minimum score, the archive),
// applied to what recall or the keyword search found. Recall itself is not changed: a filtered search
// asks recall for more candidates and keeps those that pass. Pure, except searchArchive (reads the archived files).
import { canonicalKind } from '../diary/meta.ts';
import type { Engine } from '../engine.ts';

export interface SearchFilter {
  category?: string;
  /** Every one of these tags. */
  tags?: string[];
  /** YYYY, YYYY-MM or YYYY-MM-DD: memories dated on or after it. */
  from?: string;
  /** YYYY, YYYY-MM or YYYY-MM-DD: memories dated on or before it (the whole month or year included). */
  to?: string;
  /** 'global': only global memories; a workspace id: only that workspace's. */
  workspace?: string;
  /** fact / pref / lesson / task / proj (or an alias, or another word a memory was given): only memories of that kind. */
  kind?: string;
  /** 0–1: a hit's score relative to the best hit of the same search. */
  minScore?: number;
  /** true: search the archive (archived memories) instead of the live memories. */
  archived?: boolean;
}

/** What a filter reads of a memory. */
export interface FilterableMemory {
  date: string;
  category: string;
  tags: string[];
  workspace: string;
  /** As the index folds it (diary/meta.ts canonicalKind); absent or '' = not said. */
  kind?: string;
}

const DATE_BOUND = /^\d{4}(-\d{2}(-\d{2})?)?$/;

/** Why a filter cannot be used, in the words a caller shows; null when it can. */
export function filterProblem(filter: SearchFilter): string | null {
  for (const [name, value] of [['from', filter.from], ['to', filter.to]] as const)
    if (value !== undefined && !DATE_BOUND.test(value)) return `"${name}" must be YYYY, YYYY-MM or YYYY-MM-DD (got "${value}")`;
  if (filter.from && filter.to && filter.from.slice(0, filter.to.length) > filter.to) return `"from" ${filter.from} is after "to" ${filter.to}`;
  if (filter.minScore !== undefined && !(filter.minScore >= 0 && filter.minScore <= 1)) return '"minScore" must be between 0 and 1';
  return null;
}

/** Whether the filter narrows anything (an empty one leaves a search exactly as it was). */
export function isFiltering(filter: SearchFilter): boolean {
  return Boolean(filter.category || filter.tags?.length || filter.from || filter.to || filter.workspace || filter.kind || filter.minScore || filter.archived);
}

/** Whether a memory passes the filter's category, tags, dates, workspace and kind. */
export function passesSearchFilter(memory: FilterableMemory, filter: SearchFilter): boolean {
  if (filter.category && memory.category !== filter.category) return false;
  if (filter.tags && !filter.tags.every((t) => memory.tags.includes(t))) return false;
  if (filter.from && memory.date < filter.from) return false;
  // A month or year bound includes all of it: compare only as many characters as it has.
  if (filter.to && memory.date.slice(0, filter.to.length) > filter.to) return false;
  if (filter.workspace && memory.workspace !== filter.workspace) return false;
  // Aliases on either side are folded the same way: kind:preference finds a memory written kind=pref.
  if (filter.kind && canonicalKind(memory.kind) !== canonicalKind(filter.kind)) return false;
  return true;
}

/** The hits that pass the filter, best first, at most `k`; minScore is against the best hit found. */
export function filterHits<H extends FilterableMemory & { score: number }>(hits: readonly H[], filter: SearchFilter, k: number): H[] {
  const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
  const floor = filter.minScore !== undefined && best > 0 ? filter.minScore * best : -Infinity;
  return hits.filter((h) => h.score >= floor && passesSearchFilter(h, filter)).slice(0, k);
}

const INLINE = /(?:^|\s)(cat|tag|ws|kind|from|to|min|arch):(\S+)/gu;

/**
 * Filters written into the query the way a search box takes them ("部署 tag:东京 from:2026-09
 * min:0.5 arch:1"): the model's one query string carries them without a parameter per filter. A
 * `key:value` whose value cannot be that filter (from:server, min:high) stays in the query as words.
 * kind:task takes any one word: an unknown kind is a filter that finds nothing, not query words.
 */
export function parseInlineFilters(query: string): { query: string; filter: SearchFilter } {
  const filter: SearchFilter = {};
  const rest = query.replace(INLINE, (all: string, key: string, value: string) => {
    if (key === 'cat') filter.category = value;
    else if (key === 'tag') filter.tags = [...(filter.tags ?? []), value];
    else if (key === 'ws') filter.workspace = value;
    else if (key === 'kind') filter.kind = value;
    else if ((key === 'from' || key === 'to') && DATE_BOUND.test(value)) filter[key] = value;
    else if (key === 'min' && Number(value) >= 0 && Number(value) <= 1) filter.minScore = Number(value);
    else if (key === 'arch' && /^(1|0|true|false)$/.test(value)) filter.archived = value === '1' || value === 'true';
    else return all;
    return ' ';
  });
  return { query: rest.replace(/\s+/g, ' ').trim(), filter };
}

/** Two filters as one: `b`'s values where it has them, tags of both. */
export function mergeFilters(a: SearchFilter, b: SearchFilter): SearchFilter {
  const out: SearchFilter = { ...a };
  for (const [key, value] of Object.entries(b) as [keyof SearchFilter, never][]) if (value !== undefined && key !== 'tags') out[key] = value;
  const tags = [...new Set([...(a.tags ?? []), ...(b.tags ?? [])])];
  if (tags.length > 0) out.tags = tags;
  return out;
}

export interface ArchiveHit extends FilterableMemory {
  docId: string;
  title: string;
  score: number;
  summary: string;
  supersededBy: string | null;
}

/** Archived memories read per search at most (the archive is small; an unbounded one is not read whole). */
const ARCHIVE_READ_LIMIT = 2_000;

/**
 * The archive searched by the query's words. Archived memories are out of the index (recall never
 * sees them), so their text (title, summary, tags, body) is read and scored by the share of the
 * query's words it holds; visible in `workspace` (that workspace and global; null = all), filtered.
 */
export async function searchArchive(
  engine: Pick<Engine, 'tokenizer' | 'list' | 'read'>,
  query: string,
  filter: SearchFilter,
  k: number,
  workspace: string | null,
): Promise<ArchiveHit[]> {
  const archived = (await engine.list({ includeArchived: true, workspace })).filter((m) => m.archived && passesSearchFilter(m, filter));
  const terms = [...new Set(engine.tokenizer.tokenize(query.slice(0, 2_000)).map((t) => t.toLowerCase()))];
  const hits: ArchiveHit[] = [];
  for (const m of archived.slice(0, ARCHIVE_READ_LIMIT)) {
    const body = terms.length > 0 ? ((await engine.read(m.docId).catch(() => null))?.raw ?? '') : '';
    const text = `${m.title}\n${m.summary}\n${m.tags.join(' ')}\n${body}`.toLowerCase();
    const score = terms.length === 0 ? 1 : terms.filter((t) => text.includes(t)).length / terms.length;
    if (score > 0) hits.push({ docId: m.docId, title: m.title, date: m.date, category: m.category, tags: m.tags, workspace: m.workspace, kind: m.kind, score, summary: m.summary, supersededBy: m.supersededBy ?? null });
  }
  hits.sort((a, b) => b.score - a.score || (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
  return filterHits(hits, filter, k);
}
