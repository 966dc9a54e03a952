// Tier 3: tools the model calls when the automatic recall is not enough, and the fallback write
// channel (Engine.write / Engine.edit: the same writer the semantic blocks go through). Every tool
// has a JSON Schema for its parameters, returns a typed value and renders it as text; a failure is
// thrown as an error whose message starts with a stable code and says what to do instead.
// A call from a session is scoped to that session's workspace + global: another workspace's memory
// is "not found" to every tool, reading and writing alike. A call without a session is unscoped.
import {
  clientFailure,
  formatItemPrefix,
  filterHits,
  filterProblem,
  formatProvenance,
  GLOBAL_WORKSPACE,
  goneDiaryToolText,
  isEngramError,
  listedWhileDiaryGone,
  isFiltering,
  mergeFilters,
  parseInlineFilters,
  pausedForMissingDiary,
  searchArchive,
  type SearchFilter,
  visibleIn,
  type Engine,
  type EngineStatus,
  type MemoryLocate,
  type MemoryMeta,
  type MemorySegments,
  type MemorySummary,
  type TimeExplanation,
  type WriteInput,
} from '@engram/engine';
import type { ToolDefinition, ToolExec } from '../core/host-types.ts';
import { UNSCOPED, type SessionScope } from '../workspace/scope.ts';

export const TOOL_NAMES = ['engram_index', 'engram_search', 'engram_read', 'engram_write', 'engram_edit', 'engram_list', 'engram_forget', 'engram_status', 'engram_locate', 'engram_detail'] as const;

export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** A failure inside the engine the model was told of in fixed words: toHostTool logs it. */
    readonly internal?: unknown,
  ) {
    super(`[${code}] ${message}`);
    this.name = 'ToolError';
  }
}

export interface ToolDeps {
  engine(): Engine | null;
  /** The calling session's scope (from `exec.agent.session`); absent = every call is unscoped. */
  scope?(exec: ToolExec | undefined): Promise<SessionScope>;
}

function need<T>(value: T | null, what = 'the memory engine'): T {
  if (value === null) throw new ToolError('not-ready', `${what} is not ready yet (it may still be opening, or failed to open: see the plugin log)`);
  return value;
}

/**
 * Rethrows a failure with its code in the message, which is all the model gets to see: the engine's
 * own words for an EngramError, fixed ones for anything else (errors.ts clientFailure: a failed query's
 * text holds SQL and a memory's words, nothing the model can act on), whose cause toHostTool logs.
 */
export async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const failure = clientFailure(error);
    throw new ToolError(failure.code, failure.message, isEngramError(error) ? undefined : error);
  }
}

const nonEmpty = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw new ToolError('invalid-arguments', `"${name}" must be a non-empty string`);
  return value;
};

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** engram_search's arguments: the query, how many, and the filters (`tag` adds one tag to `tags`). */
interface SearchArgs extends SearchFilter {
  query: string;
  k?: number;
  tag?: string;
  filter?: SearchGates;
}

/**
 * The relevance filter a search asks for: auto (the gates, as recall injects), off (the ranking as
 * it is, gates and judge aside), strict (also only hits near the best one: the seed's tail rule,
 * score ≥ STRICT_TAIL × the best). An explicit minScore applies in every mode.
 */
type SearchGates = 'auto' | 'off' | 'strict';
const SEARCH_GATES: readonly SearchGates[] = ['auto', 'off', 'strict'];
const STRICT_TAIL = 0.88;

/** The filter a search's parameters ask for (the inline ones in its query are parsed apart). */
function searchFilterOf(args: SearchArgs): SearchFilter {
  const filter: SearchFilter = {};
  const category = optionalText(args.category);
  if (category) filter.category = category;
  const tags = [...(stringList(args.tags) ?? []), ...(optionalText(args.tag) ? [args.tag!.trim()] : [])];
  if (tags.length > 0) filter.tags = tags;
  const from = optionalText(args.from);
  if (from) filter.from = from;
  const to = optionalText(args.to);
  if (to) filter.to = to;
  const workspace = optionalText(args.workspace);
  if (workspace) filter.workspace = workspace;
  const kind = optionalText(args.kind);
  if (kind) filter.kind = kind;
  if (typeof args.minScore === 'number') filter.minScore = args.minScore;
  if (args.archived === true) filter.archived = true;
  return filter;
}

const stringList = (value: unknown): string[] | undefined => {
  const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
  return list.length > 0 ? list : undefined;
};

/** Where a memory sits relative to the calling session: its workspace, global, or (unscoped) anywhere. */
export type ScopeMark = 'workspace' | 'global' | 'all';

export interface SearchHit {
  docId: string;
  date: string;
  title: string;
  category: string;
  tags: string[];
  score: number;
  /** The memory's summary (its `> ` paragraph, or the opening of its body). */
  summary: string;
  scope: ScopeMark;
  /** 〔s:1a2b3c4d · 会话写入〕: the session that wrote it, '' when none was recorded. */
  provenance: string;
  /** docId of the memory that replaces this one. */
  supersededBy: string | null;
  /** fact / pref / lesson / task / proj (or the word it was given); absent when not said. */
  kind?: string;
  /** What the memory is meant to achieve; absent when none. */
  goal?: string;
  /** Found in the archive (a search with archived: true). */
  archived?: boolean;
}

export interface SearchValue {
  query: string;
  hits: SearchHit[];
  /** Candidates the relevance gates removed (0 hits with gated > 0 = nothing relevant enough). */
  gated: number;
  /** Hits the search's filters left out (category, tag, dates, workspace, kind, minScore). */
  filtered?: number;
  /** Set when the query named days (昨天, 九天前, 10月6日…): what the time channel made of it. */
  time?: TimeExplanation | null;
  /** true while the diary folder is gone: recall is paused, so no hits says nothing about the memories. */
  diaryMissing?: boolean;
}


/** The order the memory tools teach: stop as soon as what you have is enough. */
const LAYER_HINT = '需要更多细节时:engram_locate({ id, query }) 找到长记忆里的相关段落 → engram_detail({ id, segments }) 只取那几段;够用就停,不必每层都调。';
export const LAYER_ORDER =
  '取用顺序:① engram_index 看目录 / engram_search 检索,只拿摘要和 docId → ② 摘要不够、记忆又长时,engram_locate 在那一篇里定位段号 → ③ engram_detail 只取那几段(不给段号则取全文)。够用就停。';

/** 〔global〕 on a global memory seen from a workspace; nothing for the session's own. */
export const scopeMark = (scope: ScopeMark): string => (scope === 'global' ? '〔global〕' : '');
const pinMark = (pinned: boolean): string => (pinned ? '〔置顶〕' : '');
/** A search result as the model reads it (both profiles): the time line, the hits, then `hint`. */
export function renderSearch(value: SearchValue, hint: string): string {
  // With the folder gone recall ran nothing: the one thing to say is why (an archive search still
  // finds the index's archived rows, listed under the notice).
  if (value.diaryMissing && value.hits.length === 0) return goneDiaryToolText('search');
  const time = timeLine(value.time);
  if (value.hits.length === 0) {
    const none =
      (value.filtered ?? 0) > 0
        ? `没有符合过滤条件的记忆(过滤条件排除了 ${value.filtered} 条相关记忆)。`
        : value.gated > 0
          ? `没有足够相关的记忆(相关性闸门剔除了 ${value.gated} 条候选;要看原始排名,加 filter:"off")。`
          : '没有找到相关记忆。';
    return time ? `${time}\n${none}` : none;
  }
  const hits = value.hits
    .map((h, i) => {
      const replaced = h.supersededBy ? `〔已被 ${h.supersededBy} 取代〕` : '';
      const archived = h.archived ? '〔已归档〕' : '';
      const kind = h.kind ? `〔${h.kind}〕` : '';
      const goal = h.goal ? `\n目标:${oneLine(h.goal, 120)}` : '';
      return `${formatItemPrefix('[{n}] {date} · {title}', i + 1, h)}${kind}${scopeMark(h.scope)}${archived}${replaced}${h.provenance} (docId: ${h.docId})\n${oneLine(h.summary, 300)}${goal}`;
    })
    .join('\n\n');
  return listedWhileDiaryGone(value.diaryMissing, [time, hits, hint].filter(Boolean).join('\n\n'));
}

export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

export function timeLine(time: TimeExplanation | null | undefined): string | null {
  if (!time) return null;
  const days = time.days.length === 1 ? time.days[0] : `${time.days[0]} 至 ${time.days[time.days.length - 1]}`;
  const sessions = time.sessions && time.sessions.length > 0 ? `涉及会话:${time.sessions.map((id) => id.slice(0, 8)).join('、')}(session_read 可读原文)。` : '';
  return time.applied
    ? `「${time.matched}」= ${days}:当天的记忆共 ${time.memories} 条,按发生时间排列。${sessions}`
    : `「${time.matched}」= ${days}:${time.memories === 0 ? '那几天没有记忆' : '那几天的记忆都不涉及查询里的其他词'},以下按相关度检索。`;
}

export interface ListValue {
  total: number;
  /** true while the diary folder is gone: the items come from the index, their files are not on disk. */
  diaryMissing?: boolean;
  items: (Pick<MemorySummary, 'docId' | 'date' | 'title' | 'category' | 'tags' | 'archived'> & { scope: ScopeMark })[];
}

export interface IndexItem {
  docId: string;
  date: string;
  title: string;
  summary: string;
  tags: string[];
  pinned: boolean;
  scope: ScopeMark;
}

export interface IndexValue {
  /** The workspace the index is of (with global); null when unscoped. */
  workspace: string | null;
  tag: string | null;
  page: number;
  pages: number;
  pageSize: number;
  total: number;
  items: IndexItem[];
  /** true while the diary folder is gone: the items come from the index, their files are not on disk. */
  diaryMissing?: boolean;
}

/** Where a memory of `workspace` sits for a caller in `scope`. */
export function markOf(scope: string | null, workspace: string): ScopeMark {
  if (scope === null) return 'all';
  return workspace === scope ? 'workspace' : 'global';
}

/** engram_index's page as the model reads it (the full profile; lean-tools.ts words its own). */
function renderFullIndex(v: IndexValue): string {
  const filter = v.tag ? `(标签「${v.tag}」)` : '';
  if (v.total === 0) return v.tag ? `没有带标签「${v.tag}」的记忆。` : '还没有记忆。';
  const head = `记忆目录${filter}:共 ${v.total} 条,第 ${v.page}/${v.pages} 页(置顶在前,其余按最近更新)`;
  const rows = v.items.map(
    (m, i) => `${(v.page - 1) * v.pageSize + i + 1}. ${m.date} · ${m.title}${pinMark(m.pinned)}${scopeMark(m.scope)} (docId: ${m.docId})\n   ${oneLine(m.summary, 160)}`,
  );
  const more = v.page < v.pages ? `下一页:engram_index({ page: ${v.page + 1}${v.tag ? `, tag: ${JSON.stringify(v.tag)}` : ''} })。` : '';
  return [head, ...rows, `${more}要细节:engram_locate({ id, query }) 或 engram_detail({ id });够用就停。`].join('\n');
}

/** `{ diaryMissing: true }` while the engine finds its diary folder gone, else nothing (the value stays as it was). */
const diaryMissingOf = (engine: Engine): { diaryMissing?: true } => (engine.diaryFolderGone() ? { diaryMissing: true } : {});

const summaryItem = (m: MemorySummary, scope: string | null) => ({ docId: m.docId, date: m.date, title: m.title, category: m.category, tags: m.tags, archived: m.archived, scope: markOf(scope, m.workspace) });

export function createTools(deps: ToolDeps): ToolDefinition[] {
  const engine = () => need(deps.engine());
  const scopeOf = async (exec: ToolExec | undefined): Promise<SessionScope> => (deps.scope ? deps.scope(exec).catch(() => UNSCOPED) : UNSCOPED);
  /** The workspace a call filters by: null when unscoped, or when scoping is off in the settings. */
  const filterOf = (scope: SessionScope): string | null => (engine().config.workspace.scoped ? scope.workspace : null);
  /**
   * Resolves an id for a scoped call; another workspace's memory is reported exactly like a missing
   * one (its existence is not the caller's business).
   */
  const visibleDoc = async (idOrPath: string, exec: ToolExec | undefined): Promise<string> => {
    const filter = filterOf(await scopeOf(exec));
    if (filter === null) return idOrPath;
    const doc = await engine().resolve(idOrPath);
    if (!doc || !visibleIn({ workspace: filter }, doc.workspace))
      throw new ToolError('not-found', `no memory with id or path "${idOrPath}"; use engram_index or engram_search to find its docId`);
    return doc.id;
  };

  const index: ToolDefinition<{ tag?: string; page?: number; pageSize?: number }, IndexValue> = {
    name: 'engram_index',
    description:
      '长期记忆的目录:当前工作区 + 全局的记忆,置顶的在前,其余按最近更新排列,分页;可按标签过滤。只返回标题、摘要和 docId,不返回正文。' +
      '想知道"以前记过什么"时先看这里。' +
      LAYER_ORDER,
    parameters: {
      type: 'object',
      properties: {
        tag: { type: 'string', description: '只列带这个标签的记忆' },
        page: { type: 'integer', minimum: 1, description: '第几页,默认 1' },
        pageSize: { type: 'integer', minimum: 1, maximum: 50, description: '每页几条,默认 20' },
      },
    },
    output: {
      schema: { type: 'object', properties: { total: { type: 'integer' }, page: { type: 'integer' }, pages: { type: 'integer' }, items: { type: 'array' } } },
      render: (_args, v) => listedWhileDiaryGone(v.diaryMissing, renderFullIndex(v)),
    },
    execute: (args, exec) =>
      guarded(async () => {
        const tag = optionalText(args.tag);
        const page = typeof args.page === 'number' && Number.isInteger(args.page) && args.page >= 1 ? args.page : 1;
        const pageSize = typeof args.pageSize === 'number' && Number.isInteger(args.pageSize) ? Math.min(50, Math.max(1, args.pageSize)) : 20;
        const filter = filterOf(await scopeOf(exec));
        const result = await engine().memoryIndex({ workspace: filter, tag, page, pageSize });
        return {
          ...diaryMissingOf(engine()),
          workspace: filter,
          tag: tag ?? null,
          page: result.page,
          pages: result.pages,
          pageSize: result.pageSize,
          total: result.total,
          items: result.items.map((m) => ({ docId: m.docId, date: m.date, title: m.title, summary: m.summary, tags: m.tags, pinned: m.pinned, scope: markOf(filter, m.workspace) })),
        };
      }),
  };

  const search: ToolDefinition<SearchArgs, SearchValue> = {
    name: 'engram_search',
    description:
      '检索长期记忆(当前工作区 + 全局;全局的记忆标 〔global〕)。相关记忆通常已自动注入对话;只在不够用、或需要换个角度查找时调用。返回按相关度排序的记忆摘要及其 docId,不返回正文;' +
      '问的是某一天(昨天、九天前、10月6日、上周三)时,返回那几天的日记,按发生时间排列。' +
      '可按 category、tag(s)、from/to(日期)、workspace(global 或工作区 id)、kind、minScore(0–1,相对最好的一条)过滤;archived: true 只查已归档的记忆。' +
      LAYER_ORDER,
    parameters: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', description: '检索内容:具体的名称、事件或关键词效果最好;也可写过滤 tag:x cat:x from:2026-03 to:2026-04 ws:global min:0.5 arch:1' },
        k: { type: 'integer', minimum: 1, maximum: 20, description: '最多返回几条(默认由配置决定)' },
        category: { type: 'string', description: '只要这个分类(文件夹)的记忆' },
        tag: { type: 'string', description: '只要带这个标签的记忆' },
        tags: { type: 'array', items: { type: 'string' }, description: '只要同时带这些标签的记忆' },
        from: { type: 'string', description: '日期下限 YYYY、YYYY-MM 或 YYYY-MM-DD(含)' },
        to: { type: 'string', description: '日期上限 YYYY、YYYY-MM 或 YYYY-MM-DD(含整月/整年)' },
        workspace: { type: 'string', description: 'global:只要全局记忆;工作区 id:只要该工作区的' },
        kind: { type: 'string', description: 'fact/pref/lesson/task/proj' },
        filter: { type: 'string', enum: ['auto', 'off', 'strict'], description: '相关度过滤:auto(默认,同自动注入);off 不过滤,看原始排名;strict 只留接近最好一条的' },
        minScore: { type: 'number', minimum: 0, maximum: 1, description: '相关度下限,相对最好的一条(1 = 只要最好的)' },
        archived: { type: 'boolean', description: 'true:只查已归档的记忆(可用 engram_detail 读)' },
      },
    },
    output: {
      schema: { type: 'object', properties: { query: { type: 'string' }, hits: { type: 'array' }, gated: { type: 'integer' } } },
      render: (_args, value) => renderSearch(value, LAYER_HINT),
    },
    timeoutMs: 30_000,
    execute: (args, exec) =>
      guarded(async () => {
        const inline = parseInlineFilters(nonEmpty(args.query, 'query'));
        if (args.filter !== undefined && !SEARCH_GATES.includes(args.filter)) throw new ToolError('invalid-arguments', `"filter" must be one of ${SEARCH_GATES.join(', ')}`);
        const gates = args.filter ?? 'auto';
        const filter = mergeFilters(inline.filter, searchFilterOf(args));
        if (gates === 'strict') filter.minScore = Math.max(filter.minScore ?? 0, STRICT_TAIL);
        const problem = filterProblem(filter);
        if (problem) throw new ToolError('invalid-arguments', problem);
        const query = inline.query || (filter.archived ? '' : nonEmpty(inline.query, 'query'));
        const k = typeof args.k === 'number' && Number.isInteger(args.k) ? Math.min(20, Math.max(1, args.k)) : undefined;
        const scope = await scopeOf(exec);
        const workspace = filterOf(scope);
        if (filter.archived) {
          const hits = await searchArchive(engine(), query, filter, k ?? engine().config.recall.kMax, workspace);
          const bySummary = await engine().summariesOf(hits.map((h) => h.docId));
          return {
            ...diaryMissingOf(engine()),
            query,
            time: null,
            gated: 0,
            hits: hits.map((h) => ({ ...h, scope: markOf(workspace, h.workspace), provenance: bySummary.has(h.docId) ? formatProvenance(bySummary.get(h.docId)!) : '', archived: true })),
          };
        }
        // A filtered search asks recall for its most candidates and keeps the ones that pass.
        const filtering = isFiltering(filter);
        const result = await engine().recall(query, { ...(filtering ? { k: 20 } : k !== undefined ? { k } : {}), workspace: scope.workspace, typedAs: 'search', ...(gates === 'off' ? { gates: 'off' as const } : {}) });
        const passing = filtering ? filterHits(result.hits, filter, Infinity) : result.hits;
        const kept = filtering ? passing.slice(0, k ?? engine().config.recall.kMax) : passing;
        const summaries = await engine().summariesOf(kept.map((h) => h.docId));
        return {
          // Recall's own reason for finding nothing, not a second look at the folder.
          ...(pausedForMissingDiary(result) ? { diaryMissing: true } : {}),
          query,
          time: result.explain.time ?? null,
          gated: result.explain.gate.removed,
          filtered: result.hits.length - passing.length,
          hits: kept.map((h) => ({
            docId: h.docId,
            date: h.date,
            title: h.title,
            category: h.category,
            tags: h.tags,
            score: h.score,
            summary: summaries.get(h.docId)?.summary || h.text,
            scope: h.scope,
            provenance: summaries.has(h.docId) ? formatProvenance(summaries.get(h.docId)!) : '',
            supersededBy: h.supersededBy,
            ...(h.kind ? { kind: h.kind } : {}),
            ...(h.goal ? { goal: h.goal } : {}),
          })),
        };
      }),
  };

  const read: ToolDefinition<{ id: string }> = {
    name: 'engram_read',
    description: '按 docId(或相对路径)读取一篇日记的全文。',
    parameters: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'docId,来自检索结果或 engram_list' } } },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, title: { type: 'string' }, raw: { type: 'string' } } },
      render: (_args, value: { docId: string; title: string; date: string; path: string; raw: string }) =>
        `${value.date} · ${value.title} (docId: ${value.docId}, ${value.path})\n\n${value.raw}`,
    },
    execute: (args, exec) =>
      guarded(async () => {
        const id = await visibleDoc(nonEmpty(args.id, 'id').trim(), exec);
        const detail = await engine().read(id);
        if (!detail) throw new ToolError('not-found', `no memory with id or path "${id}"; use engram_search or engram_list to find its docId`);
        return { docId: detail.docId, title: detail.title, date: detail.date, path: detail.path, category: detail.category, tags: detail.tags, archived: detail.archived, raw: detail.raw };
      }),
  };

  const write: ToolDefinition<{ content: string; title?: string; summary?: string; tags?: string[]; folder?: string; scope?: 'workspace' | 'global'; pinned?: boolean; supersedes?: string; kind?: string; goal?: string }> = {
    name: 'engram_write',
    description:
      '新写一篇日记并立即建索引。通常更推荐在回复末尾写 <<<DailyNoteStart>>> 语义块;同名标题已存在时会被拒绝,请改用 engram_edit。' +
      '默认记在当前工作区;对所有项目都成立的事(个人偏好、通用约定)用 scope: "global"。取代一篇旧记忆时给 supersedes(旧记忆的 docId):旧的保留,但排在新的后面。',
    parameters: {
      type: 'object',
      required: ['content'],
      properties: {
        content: { type: 'string', description: '完整日记正文:[HH:MM] 标题、> 摘要、正文、末行 Tag: a, b' },
        title: { type: 'string', description: '省略则从正文首行推断' },
        summary: { type: 'string', description: '省略则取正文开头' },
        tags: { type: 'array', items: { type: 'string' }, description: '省略则从末行 Tag 解析' },
        folder: { type: 'string', description: '分类子目录,省略则用默认分类' },
        scope: { type: 'string', enum: ['workspace', 'global'], description: 'workspace(默认):只在当前工作区可见;global:所有工作区可见' },
        pinned: { type: 'boolean', description: '置顶:在 engram_index 目录里排在最前' },
        supersedes: { type: 'string', description: '被这篇取代的旧记忆的 docId' },
        kind: { type: 'string', description: 'fact/pref/lesson/task/proj' },
        goal: { type: 'string', description: 'task 要达成什么(一句)' },
      },
    },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, path: { type: 'string' }, warnings: { type: 'array' }, workspace: { type: 'string' } } },
      render: (_args, value: { docId: string; path: string; warnings: string[]; semanticIndexed: boolean; workspace: string; supersedes: string | null }) =>
        [
          `已保存:${value.path} (docId: ${value.docId},${value.workspace === GLOBAL_WORKSPACE ? '全局可见' : '当前工作区'})`,
          value.supersedes ? `取代了 ${value.supersedes}(旧记忆保留,排在这篇之后)` : '',
          ...value.warnings.map((w) => `提示:${w}`),
          value.semanticIndexed ? '' : '(目前只有关键词检索可以找到它)',
        ]
          .filter(Boolean)
          .join('\n'),
    },
    timeoutMs: 60_000,
    execute: (args, exec) =>
      guarded(async () => {
        const input: WriteInput = { content: nonEmpty(args.content, 'content') };
        const title = optionalText(args.title);
        const summary = optionalText(args.summary);
        const folder = optionalText(args.folder);
        const tags = stringList(args.tags);
        if (title) input.title = title;
        if (summary) input.summary = summary;
        if (folder) input.folder = folder;
        if (tags) input.tags = tags;
        if (args.scope !== undefined && args.scope !== 'workspace' && args.scope !== 'global')
          throw new ToolError('invalid-arguments', '"scope" is "workspace" (the default) or "global"');
        if (args.pinned !== undefined && typeof args.pinned !== 'boolean') throw new ToolError('invalid-arguments', '"pinned" must be true or false');
        const scope = await scopeOf(exec);
        const replaced = optionalText(args.supersedes);
        let supersedes: string | null = null;
        if (replaced) {
          const old = await engine().resolve(await visibleDoc(replaced, exec));
          if (!old) throw new ToolError('not-found', `no memory with id or path "${replaced}" to supersede; use engram_index or engram_search to find its docId`);
          supersedes = old.id;
        }
        const workspace = args.scope === 'global' || scope.workspace === null ? GLOBAL_WORKSPACE : scope.workspace;
        const meta: Partial<MemoryMeta> = { workspace, origin: 'agent' };
        if (scope.sessionId) meta.sessionId = scope.sessionId;
        if (args.pinned === true) meta.pinned = true;
        if (supersedes) meta.supersedes = [supersedes];
        const kind = optionalText(args.kind);
        const goal = optionalText(args.goal);
        if (kind) meta.kind = kind;
        if (goal) meta.goal = goal;
        input.meta = meta;
        const result = await engine().write(input);
        // A near-duplicate is merged into the older memory, which may sit elsewhere (global).
        const stored = result.merged ? ((await engine().resolve(result.docId))?.workspace ?? workspace) : workspace;
        return { ...result, workspace: stored, supersedes };
      }),
  };

  const edit: ToolDefinition<{ id: string; target: string; replace: string }> = {
    name: 'engram_edit',
    description: '修改一篇日记中的一段:target 必须从那篇日记逐字引用(足够长、在文中唯一),replace 为新内容(空串表示删除该段)。docId 来自检索结果或 engram_list。',
    parameters: {
      type: 'object',
      required: ['id', 'target', 'replace'],
      properties: {
        id: { type: 'string', description: 'docId 或相对路径' },
        target: { type: 'string', description: '要被替换的原文,逐字复制' },
        replace: { type: 'string', description: '替换后的内容;空串 = 删除' },
      },
    },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, path: { type: 'string' }, strategy: { type: 'string' } } },
      render: (_args, value: { docId: string; path: string; strategy: string }) => `已修改:${value.path} (docId: ${value.docId},定位方式 ${value.strategy})`,
    },
    timeoutMs: 60_000,
    execute: (args, exec) =>
      guarded(async () => {
        if (typeof args.replace !== 'string') throw new ToolError('invalid-arguments', '"replace" must be a string (empty deletes the passage)');
        const id = await visibleDoc(nonEmpty(args.id, 'id').trim(), exec);
        return engine().edit(id, nonEmpty(args.target, 'target'), args.replace);
      }),
  };

  const list: ToolDefinition<{ filter?: string; folder?: string; limit?: number; includeArchived?: boolean }, ListValue> = {
    name: 'engram_list',
    description: '列出日记(按日期新的在前;当前工作区 + 全局,全局的标 〔global〕),可按标题/标签关键词或分类过滤。要按置顶和最近更新看目录,用 engram_index。',
    parameters: {
      type: 'object',
      properties: {
        filter: { type: 'string', description: '标题或标签里包含的关键词' },
        folder: { type: 'string', description: '只列这个分类' },
        limit: { type: 'integer', minimum: 1, maximum: 200, description: '最多几条,默认 30' },
        includeArchived: { type: 'boolean', description: '包含已归档的' },
      },
    },
    output: {
      schema: { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array' } } },
      render: (_args, value) =>
        listedWhileDiaryGone(
          value.diaryMissing,
          value.items.length === 0
            ? '没有符合条件的日记。'
            : [
                `共 ${value.total} 篇${value.total > value.items.length ? `,显示前 ${value.items.length} 篇` : ''}:`,
                ...value.items.map((m) => `- ${m.date} · ${m.title}${scopeMark(m.scope)}${m.category ? ` [${m.category}]` : ''}${m.archived ? ' (已归档)' : ''} (docId: ${m.docId})`),
              ].join('\n'),
        ),
    },
    execute: (args, exec) =>
      guarded(async () => {
        const filter = typeof args.filter === 'string' ? args.filter.trim().toLowerCase() : '';
        const folder = typeof args.folder === 'string' ? args.folder.trim() : '';
        const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(200, Math.max(1, args.limit)) : 30;
        const scope = filterOf(await scopeOf(exec));
        // Filtered and cut on the engine's rows: only the listed memories are summarised.
        const page = await engine().listPage({ includeArchived: args.includeArchived === true, workspace: scope, text: filter, folder, limit });
        return { ...diaryMissingOf(engine()), total: page.total, items: page.items.map((m) => summaryItem(m, scope)) };
      }),
  };

  const forget: ToolDefinition<{ id: string }> = {
    name: 'engram_forget',
    description: '归档一篇日记:移入归档目录,不再参与召回;文件不会被删除。',
    parameters: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'docId 或相对路径' } } },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } },
      render: (_args, value: { from: string; to: string }) => `已归档:${value.from} → ${value.to}`,
    },
    execute: (args, exec) => guarded(async () => engine().forget(await visibleDoc(nonEmpty(args.id, 'id').trim(), exec))),
  };

  const status: ToolDefinition<Record<string, never>> = {
    name: 'engram_status',
    description: '记忆库状态:日记篇数、索引块数、向量、分词器、语义通道。',
    parameters: { type: 'object', properties: {} },
    output: {
      schema: { type: 'object' },
      render: (_args, s: EngineStatus) =>
        [
          // First: with the diary folder gone nothing is recalled, whatever the counts below say.
          ...(s.diaryMissing ? [s.diaryMissing.message] : []),
          `日记 ${s.documents} 篇(已归档 ${s.archived}),索引 ${s.chunks} 块,向量 ${s.vectors} 条`,
          `分词器 ${s.tokenizer.active}${s.tokenizer.fallbackReason ? `(${s.tokenizer.fallbackReason})` : ''}`,
          `语义通道 ${s.semantic.state}${s.semantic.reason ? `:${s.semantic.reason}` : ''}`,
          s.builtAt ? `上次建索引 ${s.builtAt}` : '尚未建过索引',
          ...s.warnings.slice(0, 5).map((w) => `提示:${w}`),
        ].join('\n'),
    },
    execute: () => guarded(async () => engine().status()),
  };

  const locate: ToolDefinition<{ id: string; query: string }, MemoryLocate> = {
    name: 'engram_locate',
    description:
      '在一篇(通常很长的)记忆里定位与关键词相关的段落:只返回段号、小标题、字数、命中词和命中处的预览,不返回正文。' +
      'id 来自 engram_index / engram_search;拿到段号后用 engram_detail({ id, segments }) 只取那几段。短记忆只有一段,直接 engram_detail 取全文即可。够用就停。',
    parameters: {
      type: 'object',
      required: ['id', 'query'],
      properties: {
        id: { type: 'string', description: 'docId(来自 engram_index / engram_search / engram_list)或相对路径' },
        query: { type: 'string', description: '要找的内容:具体的词、路径、命令、名称效果最好' },
      },
    },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, segmentCount: { type: 'integer' }, hits: { type: 'array' } } },
      render: (_args, v) => {
        const head = `${v.date} · ${v.title} (docId: ${v.docId}),共 ${v.segmentCount} 段、${v.chars} 字`;
        if (v.hits.length === 0) return `${head}\n没有段落提到「${v.query}」。可换个关键词;或用 engram_detail({ id: "${v.docId}" }) 取全文。`;
        const rows = v.hits.map((h) => `[段 ${h.index}] ${h.heading || '(开头)'} · ${h.chars} 字 · 命中 ${h.matched.join(' ')}\n  ${h.preview}`);
        const best = v.hits.slice(0, 2).map((h) => h.index);
        return [head, ...rows, `取段:engram_detail({ id: "${v.docId}", segments: [${best.join(', ')}] })`].join('\n');
      },
    },
    execute: (args, exec) =>
      guarded(async () => {
        const { id, query } = args;
        const text = nonEmpty(query, 'query');
        return engine().locate(await visibleDoc(nonEmpty(id, 'id').trim(), exec), text);
      }),
  };

  const detail: ToolDefinition<{ id: string; segments?: number[] }, MemorySegments> = {
    name: 'engram_detail',
    description:
      '取一篇记忆的原文:给 segments(engram_locate 返回的段号)就只取那几段,不给则取全文。长记忆请先 engram_locate 定位,只取需要的段。',
    parameters: {
      type: 'object',
      required: ['id'],
      properties: {
        id: { type: 'string', description: 'docId 或相对路径' },
        segments: { type: 'array', items: { type: 'integer', minimum: 0 }, description: '段号列表,来自 engram_locate;省略 = 全文' },
      },
    },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, whole: { type: 'boolean' }, segments: { type: 'array' }, text: { type: 'string' } } },
      render: (_args, v) => {
        const head = v.whole
          ? `${v.date} · ${v.title} (docId: ${v.docId}, ${v.path}) 全文 ${v.chars} 字`
          : `${v.date} · ${v.title} (docId: ${v.docId}) 第 ${v.segments.map((s) => `${s.index}「${s.heading || '开头'}」`).join('、')} 段(共 ${v.segmentCount} 段,取了 ${v.text.length} / ${v.chars} 字)`;
        return `${head}\n\n${v.text}`;
      },
    },
    execute: (args, exec) =>
      guarded(async () => {
        const raw = args.segments;
        if (raw !== undefined && !(Array.isArray(raw) && raw.every((n) => Number.isInteger(n) && n >= 0)))
          throw new ToolError('invalid-arguments', '"segments" must be a list of segment numbers (integers ≥ 0) from engram_locate');
        const id = await visibleDoc(nonEmpty(args.id, 'id').trim(), exec);
        return engine().detail(id, raw);
      }),
  };

  // The host hands over whatever the model produced: a JSON null, a number or an array is not a call.
  return [index, search, read, write, edit, list, forget, status, locate, detail].map((tool) => ({
    ...tool,
    execute: (args: unknown, exec: Parameters<ToolDefinition['execute']>[1]) =>
      typeof args === 'object' && args !== null && !Array.isArray(args)
        ? tool.execute(args as never, exec)
        : Promise.reject(new ToolError('invalid-arguments', `${tool.name} takes a JSON object of arguments`)),
  }));
}
