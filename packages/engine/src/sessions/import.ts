// Past sessions → memories: one memory per topic of a session (topics.ts splits the turns without a
// model), one `## ` section per turn (so segment locate/detail can pick turns), holding what the
// person said, the conclusion, the tools used and — when asked — the model's reasoning. No summary:
// the background summary queue writes it. Idempotent through `session_imports`, one row per topic:
// an unchanged topic is skipped, a changed one updates its memory in place, never a duplicate.
//
// A topic's row is keyed by the session id for the topic that opens the session and by
// `<session id>#<first turn>` for the others. The split never moves an earlier turn to another topic
// when the log grows (topics.ts), so the keys stay put; and a session imported whole before topics
// existed holds its row under the bare session id, which its first topic now updates in place.
import { createHash } from 'node:crypto';
import { sessionImportsByIds, upsertSessionImport, type EngramDb, type SessionImportRow } from '@engram/db';
import { localDateString, localTimeString } from '../diary/dates.ts';
import { createTokenizer } from '../text/tokenize.ts';
import type { Tokenizer } from '../types.ts';
import type { SessionLog, SessionTurn } from './log.ts';
import { toolsLine } from './read.ts';
import { clipChars } from './text.ts';
import { splitTopics, type SessionTopic } from './topics.ts';

export interface SessionMemoryDraft {
  title: string;
  /** The memory body (no anchor line, no summary, no tag line: the writer adds those). */
  body: string;
  tags: string[];
  /** Local YYYY-MM-DD / HH:MM of the topic's first turn (of the session's start when unknown). */
  date: string;
  time: string;
  sessionId: string;
  /** The `session_imports` row of this topic: the session id for the first topic, `<id>#<first turn>` after. */
  key: string;
  /** The topic's first and last turn (1-based, inclusive). */
  fromTurn: number;
  toTurn: number;
  /** sha1 of what is imported: equal hashes mean nothing to update. */
  sourceHash: string;
  /** Turns in this memory. */
  turns: number;
}

export interface DraftOptions {
  /** Characters kept of the person's words per turn. */
  maxUserChars?: number;
  /** Characters kept of the conclusion per turn. */
  maxConclusionChars?: number;
  /** Characters kept of the model's reasoning per turn (with `thinking`). */
  maxThinkingChars?: number;
  /** Keep the model's reasoning in each turn's section (default false: the words, tools and conclusions only). */
  thinking?: boolean;
  /** One memory per topic (default) or, false, the whole session as one memory. */
  splitTopics?: boolean;
  /** Words for the topic split; default: the engine's tokenizer with its defaults. */
  tokenizer?: Tokenizer;
  /** The split already made (the plan drafts a session twice, with and without the reasoning). */
  topics?: SessionTopic[];
  /** Used when the log has no times at all (epoch ms). */
  fallbackTime?: number;
}

export const IMPORT_TAG = '会话导入';
const DRAFT_VERSION = 2;

let defaultTokenizer: Tokenizer | null = null;
const tokenizerOf = (options: DraftOptions): Tokenizer => options.tokenizer ?? (defaultTokenizer ??= createTokenizer({ kind: 'auto' }));

/** The `session_imports` key of the topic starting at `fromTurn`. */
export const importKey = (sessionId: string, fromTurn: number): string => (fromTurn <= 1 ? sessionId : `${sessionId}#${fromTurn}`);

/**
 * Quoted lines: a person's `## heading`, `Tag:` line, fence or `[HH:MM]` line stays their text
 * instead of becoming a section, the memory's tags, an open code block or a diary anchor.
 */
const quote = (text: string): string =>
  text
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');

interface Limits {
  user: number;
  conclusion: number;
  thinking: number | null;
}

function section(turn: SessionTurn, limits: Limits): string {
  const when = turn.startedAt === null ? '' : ` · ${localTimeString(turn.startedAt)}`;
  const lines = [`## 第 ${turn.turn} 轮${when}`, ''];
  lines.push('用户:', turn.user !== '' ? quote(clipChars(turn.user, limits.user)) : '> (本轮没有用户发言)');
  // The reasoning before the conclusion: the order it happened in.
  if (limits.thinking !== null && turn.thinking !== '') lines.push('', '思考:', quote(clipChars(turn.thinking, limits.thinking)));
  if (turn.assistant !== '') lines.push('', '结论:', quote(clipChars(turn.assistant, limits.conclusion)));
  if (turn.tools.length > 0) lines.push('', `工具:${toolsLine(turn.tools, 300).replace(/\n/g, ' ')}`);
  return lines.join('\n');
}

/** A topic's title: the session's own for a session of one topic, else the person's first line in the topic. */
function topicTitle(log: SessionLog, topic: SessionTopic, whole: boolean): string {
  const idShort = log.id.slice(0, 8);
  if (whole) return `${clipChars(log.title.replace(/\s+/g, ' ').trim(), 60)}(会话 ${idShort})`;
  const first = topic.turns.find((t) => t.user.trim() !== '')?.user.split('\n').find((l) => l.trim() !== '');
  // A heading or quote marker the person typed is not part of what they asked.
  const name = (first ? first.replace(/^\s*(?:#+|>+)\s*/, '').replace(/\s+/g, ' ').trim() : '') || log.title;
  const range = topic.from === topic.to ? `第 ${topic.from} 轮` : `第 ${topic.from}–${topic.to} 轮`;
  // The session id keeps two sessions with the same words on one day from colliding as one memory.
  return `${clipChars(name, 40)}(会话 ${idShort} · ${range})`;
}

/** The memories a session becomes, one per topic (one in all with `splitTopics: false`); [] when it has no turn worth keeping. */
export function draftImports(log: SessionLog, options: DraftOptions = {}): SessionMemoryDraft[] {
  if (log.turns.length === 0) return [];
  const limits: Limits = {
    user: options.maxUserChars ?? 1500,
    conclusion: options.maxConclusionChars ?? 800,
    thinking: options.thinking === true ? (options.maxThinkingChars ?? 3000) : null,
  };
  const topics: SessionTopic[] =
    options.topics ??
    (options.splitTopics === false ? [{ from: 1, to: log.turns.length, turns: log.turns }] : splitTopics(log.turns, { tokenizer: tokenizerOf(options) }));
  const whole = topics.length === 1;
  const sessionStart = log.startedAt ?? log.turns.find((t) => t.startedAt !== null)?.startedAt ?? log.endedAt ?? options.fallbackTime ?? 0;
  return topics.map((topic) => {
    const at = (topic.from === 1 ? null : topic.turns.find((t) => t.startedAt !== null)?.startedAt) ?? sessionStart;
    const date = localDateString(at);
    const time = localTimeString(at);
    const title = topicTitle(log, topic, whole);
    // Nothing here may depend on later turns: a topic that did not change must hash the same when the log grows.
    const range = whole ? `共 ${log.turns.length} 轮` : `第 ${topic.from}–${topic.to} 轮`;
    const head = `DSH 会话 ${log.id}${log.cwd ? `,工作目录 ${log.cwd}` : ''},${range}。`;
    const body = [head, ...topic.turns.map((t) => section(t, limits))].join('\n\n');
    const tags = [IMPORT_TAG];
    const sourceHash = createHash('sha1').update(JSON.stringify({ v: DRAFT_VERSION, title, body, tags, date, time })).digest('hex');
    return { title, body, tags, date, time, sessionId: log.id, key: importKey(log.id, topic.from), fromTurn: topic.from, toTurn: topic.to, sourceHash, turns: topic.turns.length };
  });
}

export type ImportStatus = 'new' | 'changed' | 'unchanged' | 'empty';

export interface ImportTopicPlan {
  key: string;
  status: Exclude<ImportStatus, 'empty'>;
  /** The memory an earlier import wrote for this topic. */
  path: string | null;
  draft: SessionMemoryDraft;
}

export interface ImportPlanItem {
  sessionId: string;
  title: string;
  turns: number;
  /** The session as a whole: new (no topic imported), unchanged (every topic as imported), changed (anything else), empty. */
  status: ImportStatus;
  /** The memory an earlier import wrote for the session's first topic. */
  path: string | null;
  /** The first topic's draft (null for an empty session). */
  draft: SessionMemoryDraft | null;
  /** Every memory the session becomes, in turn order. */
  topics: ImportTopicPlan[];
}

function sessionStatus(topics: readonly ImportTopicPlan[]): ImportStatus {
  if (topics.length === 0) return 'empty';
  if (topics.every((t) => t.status === 'unchanged')) return 'unchanged';
  if (topics.every((t) => t.status === 'new')) return 'new';
  return 'changed';
}

/**
 * What an import would do, without writing anything (the preview). With `thinking` unset (a listing
 * that does not know how the person will import), a topic imported either with or without the
 * reasoning counts as unchanged; the drafts shown are the ones without it.
 */
export async function planImport(db: EngramDb, logs: readonly SessionLog[], options: DraftOptions = {}): Promise<ImportPlanItem[]> {
  const either = options.thinking === undefined;
  const drafted = logs.map((log) => {
    if (log.id === '' || log.turns.length === 0) return { log, drafts: [], otherHashes: [] };
    // The split does not read the reasoning: made once, the two variants' drafts pair up one to one.
    const topics = options.topics ?? (options.splitTopics === false ? undefined : splitTopics(log.turns, { tokenizer: tokenizerOf(options) }));
    const drafts = draftImports(log, { ...options, topics });
    const other = either ? draftImports(log, { ...options, topics, thinking: true }) : [];
    return { log, drafts, otherHashes: other.map((d) => d.sourceHash) };
  });
  const known = await sessionImportsByIds(
    db,
    drafted.flatMap((d) => d.drafts.map((draft) => draft.key)),
  );
  return drafted.map(({ log, drafts, otherHashes }) => {
    const topics: ImportTopicPlan[] = drafts.map((draft, i) => {
      const row = known.get(draft.key);
      const same = row !== undefined && (row.sourceHash === draft.sourceHash || row.sourceHash === otherHashes[i]);
      return { key: draft.key, status: !row ? 'new' : same ? 'unchanged' : 'changed', path: row?.path ?? null, draft };
    });
    return { sessionId: log.id, title: drafts[0]?.title ?? log.title, turns: log.turns.length, status: sessionStatus(topics), path: topics[0]?.path ?? null, draft: drafts[0] ?? null, topics };
  });
}

export interface ImportDeps {
  db: EngramDb;
  /** Writes a new memory; returns where it went (relative diary path). */
  writeMemory(draft: SessionMemoryDraft): Promise<{ path: string }>;
  /** Rewrites the memory at `path` from the draft; may return a new path when the file moved. */
  /** `written: 'new'` when the memory was left as it was and the topic written as a new one (the person had made it theirs). */
  updateMemory(path: string, draft: SessionMemoryDraft): Promise<{ path?: string; written?: 'new' } | void>;
}

export interface ImportOptions extends DraftOptions {
  workspace: string;
  onProgress?(done: number, total: number): void;
  now?(): Date;
}

export interface ImportReport {
  /** Memories written, updated and skipped (a session of three topics counts three). */
  imported: number;
  updated: number;
  skipped: number;
  /** Sessions with no turns (nothing to import). */
  empty: number;
  failed: { sessionId: string; error: string }[];
}

// Two imports of the same database at once would both see a session as new and write it twice.
const running = new WeakMap<object, Promise<unknown>>();

function serialised<T>(key: object, run: () => Promise<T>): Promise<T> {
  const before = running.get(key) ?? Promise.resolve();
  const next = before.then(run, run);
  running.set(
    key,
    next.catch(() => undefined),
  );
  return next;
}

export function importSessions(deps: ImportDeps, logs: readonly SessionLog[], options: ImportOptions): Promise<ImportReport> {
  return serialised(deps.db, () => runImport(deps, logs, options));
}

async function runImport(deps: ImportDeps, logs: readonly SessionLog[], options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, updated: 0, skipped: 0, empty: 0, failed: [] };
  // The same session listed twice would be "new" twice in one plan.
  const seen = new Set<string>();
  const unique = logs.filter((log) => (seen.has(log.id) ? false : (seen.add(log.id), true)));
  const plan = await planImport(deps.db, unique, options);
  const now = options.now ?? (() => new Date());
  const progress = (done: number) => {
    try {
      options.onProgress?.(done, plan.length);
    } catch {
      // a progress listener must not stop the import
    }
  };
  let done = 0;
  for (const item of plan) {
    if (item.status === 'empty') report.empty++;
    for (const topic of item.topics) {
      try {
        if (topic.status === 'unchanged') {
          report.skipped++;
          continue;
        }
        const draft = topic.draft;
        let path: string;
        let updated = false;
        if (topic.status === 'changed' && topic.path !== null) {
          const result = await deps.updateMemory(topic.path, draft);
          path = (result && typeof result.path === 'string' && result.path) || topic.path;
          updated = !(result && result.written === 'new');
        } else {
          path = (await deps.writeMemory(draft)).path;
        }
        const row: SessionImportRow = {
          sessionId: draft.key,
          workspace: options.workspace,
          path,
          sourceHash: draft.sourceHash,
          turns: draft.turns,
          importedAt: now().toISOString(),
        };
        await upsertSessionImport(deps.db, row);
        if (updated) report.updated++;
        else report.imported++;
      } catch (error) {
        report.failed.push({ sessionId: item.sessionId, error: error instanceof Error ? error.message : String(error) });
      }
    }
    progress(++done);
  }
  return report;
}
