// The minor-rules book: rule sentences from compaction summaries, one line each with a hit count.
// A rule that a later summary states again is the same rule (its hooks overlap enough): its count
// goes up and its newest wording replaces the old. Over the cap, the entry with the fewest hits
// goes, the oldest first among equals — what keeps coming back is what stays. Pure.
import { batchKeywords } from './keywords.ts';
import { collapseWhitespace, splitLines } from './text.ts';

export interface RuleEntry {
  text: string;
  hits: number;
  /** YYYY-MM-DD. */
  firstSeen: string;
  lastSeen: string;
  /** The compaction that last counted it: a redelivered summary does not count twice. */
  lastCompaction: string;
}

export const HOOK_COUNT = 5;

export function ruleHooks(tokens: readonly string[]): string[] {
  return batchKeywords([tokens], HOOK_COUNT)[0] ?? [];
}

/** Same rule when the hooks overlap by max(2, ⌈0.6 · the smaller set⌉), or the texts are equal. */
export function sameRule(a: { text: string; hooks: readonly string[] }, b: { text: string; hooks: readonly string[] }): boolean {
  if (collapseWhitespace(a.text) === collapseWhitespace(b.text)) return true;
  if (a.hooks.length === 0 || b.hooks.length === 0) return false;
  const other = new Set(b.hooks);
  const overlap = new Set(a.hooks.filter((h) => other.has(h))).size;
  return overlap >= Math.max(2, Math.ceil(Math.min(a.hooks.length, b.hooks.length) * 0.6));
}

export interface MergeInput {
  date: string;
  compactionId: string;
  max: number;
  tokenize(text: string): string[];
}

export interface MergeResult {
  book: RuleEntry[];
  added: number;
  bumped: number;
  /** Entries the cap pushed out. */
  evicted: RuleEntry[];
}

export function mergeRules(book: readonly RuleEntry[], sentences: readonly string[], input: MergeInput): MergeResult {
  const entries = book.map((e) => ({ ...e, hooks: ruleHooks(input.tokenize(e.text)) }));
  let added = 0;
  let bumped = 0;
  for (const raw of sentences) {
    const text = collapseWhitespace(raw);
    if (text === '') continue;
    const candidate = { text, hooks: ruleHooks(input.tokenize(text)) };
    const at = entries.findIndex((e) => sameRule(e, candidate));
    if (at >= 0) {
      const [entry] = entries.splice(at, 1);
      const counted = entry!.lastCompaction === input.compactionId;
      // Newest wording, moved to the end (newest last reads naturally).
      entries.push({ ...entry!, text, hooks: candidate.hooks, hits: counted ? entry!.hits : entry!.hits + 1, lastSeen: input.date, lastCompaction: input.compactionId });
      if (!counted) bumped++;
    } else {
      entries.push({ text, hooks: candidate.hooks, hits: 1, firstSeen: input.date, lastSeen: input.date, lastCompaction: input.compactionId });
      added++;
    }
  }
  const evicted: RuleEntry[] = [];
  while (entries.length > input.max) {
    let victim = 0;
    for (let i = 1; i < entries.length; i++) {
      const e = entries[i]!;
      const v = entries[victim]!;
      if (e.hits < v.hits || (e.hits === v.hits && e.lastSeen < v.lastSeen)) victim = i;
    }
    const [gone] = entries.splice(victim, 1);
    evicted.push(strip(gone!));
  }
  return { book: entries.map(strip), added, bumped, evicted };
}

const strip = ({ text, hits, firstSeen, lastSeen, lastCompaction }: RuleEntry & { hooks?: unknown }): RuleEntry => ({ text, hits, firstSeen, lastSeen, lastCompaction });

export const RULES_BOOK_MARKER = '<!-- engram:minor-rules v1 -->';
const ENTRY = /^- \[auto\] (.*) ⟦hits=(\d+) · (\d{4}-\d{2}-\d{2}) · (\d{4}-\d{2}-\d{2}) · ([^⟧]*)⟧$/;

export function renderRulesBook(entries: readonly RuleEntry[], sessionId: string): string {
  const lines = [
    '# 次要规则(自动归纳)',
    RULES_BOOK_MARKER,
    `> 会话 ${collapseWhitespace(sessionId)}:从压缩摘要里自动归纳的规矩,权限低于用户当前的指示,冲突时以用户为准。`,
    '> 行尾:命中次数 · 首次 · 最近 · 最近一次压缩。',
    '',
    ...entries.map((e) => `- [auto] ${collapseWhitespace(e.text)} ⟦hits=${e.hits} · ${e.firstSeen} · ${e.lastSeen} · ${collapseWhitespace(e.lastCompaction).replace(/⟧/g, '')}⟧`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Entries of a rules book file; lines in another shape are ignored (a person may have edited it). */
export function parseRulesBook(text: string): RuleEntry[] {
  const entries: RuleEntry[] = [];
  for (const line of splitLines(text)) {
    const m = ENTRY.exec(line.trim());
    if (m) entries.push({ text: m[1]!, hits: Number(m[2]), firstSeen: m[3]!, lastSeen: m[4]!, lastCompaction: m[5]! });
  }
  return entries;
}
