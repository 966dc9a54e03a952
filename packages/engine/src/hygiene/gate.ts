// The engine side of write hygiene: finds the older memories a draft should be compared with (the
// lexical index's best matches within the write's scope, read from their files), asks assessWrite,
// and carries out its answer — a refusal, a merge into the older file, or a go-ahead with warnings.
// Runs inside the engine's write lock.
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import { readFile } from 'node:fs/promises';
import { readForRewrite, rewriteIfUnchanged } from '../diary/textfile.ts';
import type { DocumentRow } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import { localDateString, localTimeString } from '../diary/dates.ts';
import { safeJoin } from '../diary/fsio.ts';
import { normaliseTitle, parseDiaryText } from '../diary/parse.ts';
import { assertWritableSize, cleanEntryInput, composeEntry, type CreateEntryInput, type TitleLookup } from '../diary/store.ts';
import { EngramError } from '../errors.ts';
import type { LexicalHit } from '../lexical/bm25.ts';
import { backgroundIdfTable, UNKNOWN_WORD_IDF } from '../recall/background-idf.ts';
import type { Tokenizer } from '../types.ts';
import { assessWrite, HygieneTokens, type ConflictWarning, type HygieneCandidate, type HygieneText } from './assess.ts';
import { withMergedParagraph } from './merge.ts';

/** Older memories compared with a draft at most (the lexical index's best matches). */
export const CANDIDATE_LIMIT = 12;
/** General-language IDF a word needs to count as naming a subject (使用 4.5, 配置 5.9 do not; 数据库 8.9 does). */
export const DISTINCTIVE_IDF = 7;

export interface WriteGateDeps {
  diaryDir: string;
  config: EngramConfig;
  tokenizer: Tokenizer;
  /** The lexical index's top chunks for these tokens. */
  search(tokens: string[], limit: number): LexicalHit[];
  /** A document by id, when the write's scope sees it (live, not archived). */
  visibleDoc(docId: string): DocumentRow | undefined;
  /** docId → the memory that replaces it. */
  supersededBy(): Map<string, string>;
  now: Date;
}

export type GateOutcome =
  | { kind: 'create'; conflicts: ConflictWarning[]; warnings: string[] }
  | { kind: 'merged'; docId: string; path: string; identical: boolean; conflicts: ConflictWarning[]; warnings: string[] };

/** Whether a word can name a subject, by general-language IDF (unknown words are names and terms). */
export function distinctiveByIdf(token: string): boolean {
  const table = backgroundIdfTable();
  if (!table) return true;
  return (table.get(token) ?? UNKNOWN_WORD_IDF) >= DISTINCTIVE_IDF;
}

async function candidatesFor(deps: WriteGateDeps, tokens: string[]): Promise<HygieneCandidate[]> {
  const ids: string[] = [];
  for (const hit of deps.search(tokens, CANDIDATE_LIMIT * 6)) {
    if (ids.length >= CANDIDATE_LIMIT) break;
    if (!ids.includes(hit.docId) && deps.visibleDoc(hit.docId)?.root === 'diary') ids.push(hit.docId);
  }
  const replaced = deps.supersededBy();
  const out: HygieneCandidate[] = [];
  for (const id of ids) {
    const d = deps.visibleDoc(id)!;
    let raw: string;
    try {
      raw = await readFile(safeJoin(deps.diaryDir, d.path), 'utf8');
    } catch {
      continue; // gone since the last index: nothing to compare with
    }
    const parsed = parseDiaryText(raw, { root: 'diary', path: d.path, mtimeMs: 0, size: 0, archiveFolder: deps.config.diary.archiveFolder, requireTag: false, timePrefix: false });
    out.push({
      docId: d.id,
      title: parsed.title,
      summary: parsed.summarySource === 'manual' ? parsed.summary : '',
      body: parsed.body,
      tags: parsed.tags,
      date: parsed.date,
      path: d.path,
      locked: d.locked,
      superseded: replaced.has(d.id),
    });
  }
  return out;
}

/**
 * Checks a write before it creates a file. Throws EngramError 'fragment' for a fragment; merges a
 * near-duplicate into the older memory (kind 'merged': no file to create); otherwise 'create'.
 * A title already taken is left to createEntry, whose answer (update the existing one) fits better.
 */
export async function gateWrite(deps: WriteGateDeps, input: CreateEntryInput, takenTitles: TitleLookup): Promise<GateOutcome> {
  const settings = deps.config.hygiene;
  if (!settings.enabled) return { kind: 'create', conflicts: [], warnings: [] };
  const entry = composeEntry(input, deps.now);
  if (takenTitles.has(normaliseTitle(entry.title))) return { kind: 'create', conflicts: [], warnings: [] };
  const draft = {
    title: entry.title,
    summary: entry.summary,
    body: entry.body,
    tags: entry.tags,
    titleFromContent: (input.title ?? '').trim() === '',
    supersedes: input.meta?.supersedes ?? [],
  };
  const text: HygieneText = { tokenize: (s) => deps.tokenizer.tokenize(s), distinctive: distinctiveByIdf };
  const memoryText = (m: { title: string; summary: string; body: string; tags: string[] }) => [m.title, m.summary, m.body, m.tags.join(' ')].join('\n');
  // Each text assessWrite tokenizes is announced first: one jieba subset for all of them, not one per clause.
  deps.tokenizer.prepare?.([memoryText(draft)]);
  const tokens = new HygieneTokens(text);
  const draftTokens = tokens.ofMemory(draft);
  const existing = draftTokens.length > 0 ? await candidatesFor(deps, draftTokens) : [];
  deps.tokenizer.prepare?.(existing.map(memoryText));
  const verdict = assessWrite(draft, existing, settings, text, tokens);
  if (verdict.verdict === 'fragment') throw new EngramError('fragment', verdict.message, { reason: verdict.reason });
  if (verdict.verdict === 'new') return { kind: 'create', conflicts: verdict.conflicts, warnings: [...verdict.warnings, ...verdict.conflicts.map((c) => c.reason)] };

  const target = verdict.target;
  const conflictNotes = verdict.conflicts.map((c) => c.reason);
  const writerWorkspace = input.meta?.workspace ?? GLOBAL_WORKSPACE;
  const targetWorkspace = deps.visibleDoc(target.docId)?.workspace ?? GLOBAL_WORKSPACE;
  if ((input.meta?.supersedes ?? []).includes(target.docId) || targetWorkspace !== writerWorkspace) {
    // A replacement must not vanish into what it replaces, and a workspace's words must not be
    // appended to a memory that every workspace sees: both are written as their own memory.
    return {
      kind: 'create', conflicts: verdict.conflicts,
      warnings: [`和已有记忆「${target.title}」(${target.docId})几乎相同;${targetWorkspace !== writerWorkspace ? '它属于另一个范围' : '这条记忆取代它'},所以单独保存,没有合并。`, ...conflictNotes],
    };
  }
  if (input.meta?.origin === 'import') {
    // An imported session is kept as its own memory: re-importing updates that file in place, which
    // must never be another memory's file.
    return {
      kind: 'create', conflicts: verdict.conflicts,
      warnings: [`导入的会话和已有记忆「${target.title}」(${target.docId})几乎相同;导入的内容单独保存,没有合并。`, ...conflictNotes],
    };
  }
  if (verdict.identical) {
    return {
      kind: 'merged', docId: target.docId, path: target.path, identical: true, conflicts: verdict.conflicts,
      warnings: [`已有内容相同的记忆「${target.title}」(${target.docId}),这次没有重复写入。`, ...conflictNotes, ...cleanEntryInput(input).warnings],
    };
  }
  const file = safeJoin(deps.diaryDir, target.path);
  // Decoded and written back in the file's own encoding, re-checked right before the rename.
  const before = await readForRewrite(file, target.path);
  const merged = withMergedParagraph(before.text, target.path, { title: entry.title, summary: entry.summary, body: entry.body, tags: entry.tags }, { date: localDateString(deps.now.getTime()), time: localTimeString(deps.now.getTime()) });
  assertWritableSize(merged, `the entry "${target.title}"`);
  await rewriteIfUnchanged(file, before, merged);
  return {
    kind: 'merged', docId: target.docId, path: target.path, identical: false, conflicts: verdict.conflicts,
    // What was stripped from the caller's text (control characters, U+2028…) is said here too.
    warnings: [`和已有记忆「${target.title}」(${target.docId})几乎相同(词语重合 ${Math.round(verdict.overlap * 100)}%),没有新建文件:这次的内容已作为一段带日期的补充并入它。`, ...conflictNotes, ...cleanEntryInput(input).warnings],
  };
}
