// The lean profile's four tools. Each one's parameters pick the layer, so the model pays for four
// short schemas instead of fifteen, and every capability of the full set stays reachable:
//   engram         — read:  q → search (summaries + docId) · id+q → locate · id(+seg) → detail · {} → index
//   engram_save    — write: content → new · id+target → edit · id+content → supersede · id+forget → archive · {} → the whole guideline
//   engram_sync    — other sessions: {} → brief · say → wall post · wall → wall read · book → private notebook
//   engram_history — verbatim: {} → past sessions · id → one session's turns, or a memory's source
//                    session (+q words inside it, +view thinking/raw) · q alone → this session's compacted turns
// A layer runs the full tool's own execute (same scope checks, guards and engine calls), so the two
// profiles cannot drift apart in what they do, only in how they are described. Texts the engine or
// a full tool wrote that name a full-profile tool are renamed to the lean call before the model
// reads them. Every value is plain JSON matching output.schema; render gives the text, which the
// registration turns into content blocks like every other tool's.
import { BUILTIN_DIARY_GUIDELINE, formatItemPrefix, listedWhileDiaryGone, type CompactionMemory, type MemoryLocate, type MemorySegments } from '@engram/engine';
import { createCompactionTools } from '../compaction/tools.ts';
import { createCrossSessionTools, type WorkspaceOf } from '../crosssession/tools.ts';
import { fullGuideline } from '../resident/guideline.ts';
import type { ToolDefinition, ToolExec } from '../core/host-types.ts';
import { LEAN_HISTORY_TOOL, LEAN_READ_TOOL, LEAN_SAVE_TOOL, LEAN_SYNC_TOOL, leanNames } from './profiles.ts';
import { sessionToolSpecs } from '../sessions/tools.ts';
import { createTools, guarded, oneLine, renderSearch, scopeMark, ToolError, type IndexValue, type SearchValue, type ToolDeps } from './memory-tools.ts';

export interface LeanToolDeps extends ToolDeps {
  workspaceOf: WorkspaceOf;
  compaction(): CompactionMemory | null;
}

/** { layer, result }: which layer answered, and that layer's value. */
export interface LayerValue<L extends string = string> {
  layer: L;
  result: Record<string, unknown>;
}

const layerSchema = (layers: readonly string[]) => ({
  type: 'object',
  required: ['layer', 'result'],
  additionalProperties: false,
  properties: { layer: { type: 'string', enum: [...layers] }, result: { type: 'object' } },
});

/** Plain JSON (drops undefined, turns class instances into records): what the host stores losslessly. */
const plain = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value ?? {})) as Record<string, unknown>;

/** The text of a full tool's render, whether it returns a string or content blocks. */
function renderedText(rendered: unknown): string {
  if (typeof rendered === 'string') return rendered;
  if (Array.isArray(rendered)) return rendered.map((b) => (typeof b?.text === 'string' ? b.text : '')).join('\n');
  return '';
}

const isArgs = (args: unknown): args is Record<string, unknown> => typeof args === 'object' && args !== null && !Array.isArray(args);
const has = (args: Record<string, unknown>, key: string): boolean => args[key] !== undefined && args[key] !== null;

const READ_LAYERS = ['search', 'index', 'locate', 'detail'] as const;
const SAVE_LAYERS = ['guide', 'write', 'edit', 'forget'] as const;
const SYNC_LAYERS = ['brief', 'wall', 'notebook'] as const;
const HISTORY_LAYERS = ['sessions', 'session', 'compacted'] as const;

const DETAIL_HINT = '细节:engram({ id, q }) 在长记忆里定位段号 → engram({ id, seg }) 只取那几段;短记忆直接 engram({ id })。够用就停。';


function renderIndex(v: IndexValue): string {
  if (v.total === 0) return listedWhileDiaryGone(v.diaryMissing, '还没有记忆。');
  const head = `记忆目录:共 ${v.total} 条,第 ${v.page}/${v.pages} 页(置顶在前,其余按最近更新)`;
  const rows = v.items.map((m, i) => `${(v.page - 1) * v.pageSize + i + 1}. ${m.date} · ${m.title}${m.pinned ? '〔置顶〕' : ''}${scopeMark(m.scope)} (docId: ${m.docId})\n   ${oneLine(m.summary, 160)}`);
  const more = v.page < v.pages ? `下一页:engram({ page: ${v.page + 1} })。` : '';
  return listedWhileDiaryGone(v.diaryMissing, [head, ...rows, `${more}${DETAIL_HINT}`].join('\n'));
}

function renderLocate(v: MemoryLocate): string {
  const head = `${v.date} · ${v.title} (docId: ${v.docId}),共 ${v.segmentCount} 段、${v.chars} 字`;
  if (v.hits.length === 0) return `${head}\n没有段落提到「${v.query}」。可换个词;或 engram({ id: "${v.docId}" }) 取全文。`;
  const rows = v.hits.map((h) => `[段 ${h.index}] ${h.heading || '(开头)'} · ${h.chars} 字 · 命中 ${h.matched.join(' ')}\n  ${h.preview}`);
  const best = v.hits.slice(0, 2).map((h) => h.index);
  return [head, ...rows, `取段:engram({ id: "${v.docId}", seg: [${best.join(', ')}] })`].join('\n');
}

function renderDetail(v: MemorySegments): string {
  const head = v.whole
    ? `${v.date} · ${v.title} (docId: ${v.docId}, ${v.path}) 全文 ${v.chars} 字`
    : `${v.date} · ${v.title} (docId: ${v.docId}) 第 ${v.segments.map((s) => `${s.index}「${s.heading || '开头'}」`).join('、')} 段(共 ${v.segmentCount} 段,取了 ${v.text.length} / ${v.chars} 字)`;
  return `${head}\n\n${v.text}`;
}

export function createLeanTools(deps: LeanToolDeps): ToolDefinition[] {
  const full = new Map<string, ToolDefinition>(
    [
      ...createTools({ engine: deps.engine, ...(deps.scope ? { scope: deps.scope } : {}) }),
      ...createCrossSessionTools({ engine: deps.engine, workspaceOf: deps.workspaceOf }),
      ...sessionToolSpecs({ config: () => deps.engine()?.config ?? null, engine: deps.engine, ...(deps.scope ? { scope: deps.scope } : {}) }),
      ...createCompactionTools({ memory: deps.compaction }),
    ].map((tool) => [tool.name, tool]),
  );
  /** Runs a full tool's execute; its errors reach the model with the lean names in them. */
  const run = async (name: string, args: Record<string, unknown>, exec: ToolExec): Promise<Record<string, unknown>> => {
    try {
      return plain(await full.get(name)!.execute(args, exec));
    } catch (error) {
      if (error instanceof ToolError) throw new ToolError(error.code, leanNames(error.message.replace(/^\[[^\]]*\]\s*/, '')), error.internal);
      throw error;
    }
  };
  const fullText = (name: string, args: Record<string, unknown>, value: Record<string, unknown>): string =>
    leanNames(renderedText(full.get(name)!.output?.render?.(args, value)));
  const withArgs =
    <V>(name: string, body: (args: Record<string, unknown>, exec: ToolExec) => Promise<V>) =>
    (args: unknown, exec: ToolExec): Promise<V> =>
      args === undefined || args === null || isArgs(args)
        ? guarded(() => body(isArgs(args) ? args : {}, exec))
        : Promise.reject(new ToolError('invalid-arguments', `${name} takes a JSON object of arguments`));

  const read: ToolDefinition<Record<string, unknown>, LayerValue<(typeof READ_LAYERS)[number]>> = {
    name: LEAN_READ_TOOL,
    description: '读记忆(相关的已自动注入),够用就停:q 检索摘要和 docId,可带过滤 tag: cat: kind: from: to: ws: min: arch:1;id+q 定位段号;id+seg 取段,只给 id 取全文;无参数=目录(page 翻页)。',
    parameters: { type: 'object', properties: { q: { type: 'string' }, id: { type: 'string' }, seg: { type: 'array', items: { type: 'integer' } }, page: { type: 'integer' } } },
    output: {
      schema: layerSchema(READ_LAYERS),
      render: (_args, v) => {
        const r = v.result as never;
        if (v.layer === 'search') return renderSearch(r, DETAIL_HINT);
        if (v.layer === 'index') return renderIndex(r);
        if (v.layer === 'locate') return renderLocate(r);
        return renderDetail(r);
      },
    },
    timeoutMs: 30_000,
    execute: withArgs(LEAN_READ_TOOL, async (args, exec) => {
      const q = typeof args.q === 'string' ? args.q.trim() : '';
      if (has(args, 'id')) {
        if (has(args, 'seg')) return { layer: 'detail', result: await run('engram_detail', { id: args.id, segments: args.seg }, exec) };
        if (q !== '') return { layer: 'locate', result: await run('engram_locate', { id: args.id, query: q }, exec) };
        return { layer: 'detail', result: await run('engram_detail', { id: args.id }, exec) };
      }
      if (q !== '') return { layer: 'search', result: await run('engram_search', { query: q }, exec) };
      return { layer: 'index', result: await run('engram_index', has(args, 'page') ? { page: args.page } : {}, exec) };
    }),
  };

  const save: ToolDefinition<Record<string, unknown>, LayerValue<(typeof SAVE_LAYERS)[number]>> = {
    name: LEAN_SAVE_TOOL,
    description:
      '写记忆:content 新篇;id+target+content 把 target(逐字)换成 content;id+content 取代旧篇;id+forget 归档;global 全局可见;无参数=完整守则。',
    parameters: { type: 'object', properties: { content: { type: 'string' }, id: { type: 'string' }, target: { type: 'string' }, forget: { type: 'boolean' }, global: { type: 'boolean' } } },
    output: {
      schema: layerSchema(SAVE_LAYERS),
      render: (args, v) => {
        const r = v.result as Record<string, any>;
        if (v.layer === 'guide') return String(r.text);
        if (v.layer === 'write') return fullText('engram_write', args, r);
        if (v.layer === 'edit') return fullText('engram_edit', args, r);
        return fullText('engram_forget', args, r);
      },
    },
    timeoutMs: 60_000,
    execute: withArgs(LEAN_SAVE_TOOL, async (args, exec) => {
      const content = typeof args.content === 'string' ? args.content : undefined;
      if (args.global !== undefined && typeof args.global !== 'boolean') throw new ToolError('invalid-arguments', '"global" must be true or false');
      // scope, kind and goal go with a new memory (engram_write checks them and folds kind aliases). kind
      // and goal are not in the schema (the fixed cost): the guideline teaches the text's Meta line instead.
      const extra: Record<string, unknown> = args.global === true ? { scope: 'global' } : {};
      for (const key of ['kind', 'goal'] as const) if (typeof args[key] === 'string' && args[key].trim() !== '') extra[key] = args[key];
      if (has(args, 'id')) {
        if (args.forget === true) return { layer: 'forget', result: await run('engram_forget', { id: args.id }, exec) };
        if (has(args, 'target')) return { layer: 'edit', result: await run('engram_edit', { id: args.id, target: args.target, replace: content ?? '' }, exec) };
        if (content !== undefined) return { layer: 'write', result: await run('engram_write', { content, supersedes: args.id, ...extra }, exec) };
        throw new ToolError('invalid-arguments', 'with "id" give "target" + "content" (edit a passage), "content" (a new memory replacing it) or "forget": true (archive it)');
      }
      if (content !== undefined) return { layer: 'write', result: await run('engram_write', { content, ...extra }, exec) };
      if (has(args, 'target') || args.forget === true) throw new ToolError('invalid-arguments', '"target" and "forget" need the "id" of the memory');
      return { layer: 'guide', result: { text: fullGuideline(deps.engine()?.config.diary, BUILTIN_DIARY_GUIDELINE) } };
    }),
  };

  const sync: ToolDefinition<Record<string, unknown>, LayerValue<(typeof SYNC_LAYERS)[number]>> = {
    name: LEAN_SYNC_TOOL,
    description:
      '跨会话:无参数=别的会话新写的记忆和留言;say 留言给 to(会话/工作区 id);wall 看墙;book 本会话私密本 notes/rules(每次注入)/minor,带 say 写,replace 整本换。',
    parameters: { type: 'object', properties: { say: { type: 'string' }, to: { type: 'string' }, wall: { type: 'boolean' }, book: { type: 'string' }, replace: { type: 'boolean' } } },
    output: {
      schema: layerSchema(SYNC_LAYERS),
      render: (args, v) => {
        const name = v.layer === 'brief' ? 'engram_brief' : v.layer === 'wall' ? 'engram_wall' : 'engram_notebook';
        return fullText(name, args, v.result);
      },
    },
    timeoutMs: 30_000,
    execute: withArgs(LEAN_SYNC_TOOL, async (args, exec) => {
      if (has(args, 'book')) {
        const notebookArgs: Record<string, unknown> = { which: args.book, mode: args.replace === true ? 'replace' : 'append' };
        if (has(args, 'say')) notebookArgs.say = args.say;
        return { layer: 'notebook', result: await run('engram_notebook', notebookArgs, exec) };
      }
      if (has(args, 'say')) return { layer: 'wall', result: await run('engram_wall', { say: args.say, ...(has(args, 'to') ? { to: args.to } : {}) }, exec) };
      if (args.wall === true) return { layer: 'wall', result: await run('engram_wall', {}, exec) };
      return { layer: 'brief', result: await run('engram_brief', {}, exec) };
    }),
  };

  const history: ToolDefinition<Record<string, unknown>, LayerValue<(typeof HISTORY_LAYERS)[number]>> = {
    name: LEAN_HISTORY_TOOL,
    // view is taken but not declared (the fixed cost has no room for it): session_read checks it.
    description: '原话:无参数=过去的会话;id 读会话或记忆出处,from 翻页;q 查本会话被压缩掉的原文。',
    parameters: { type: 'object', properties: { id: { type: 'string' }, from: { type: 'integer' }, q: { type: 'string' } } },
    output: {
      schema: layerSchema(HISTORY_LAYERS),
      render: (_args, v) => leanNames(String(v.result.text ?? '')),
    },
    timeoutMs: 30_000,
    execute: withArgs(LEAN_HISTORY_TOOL, async (args, exec) => {
      if (has(args, 'id')) {
        const pick: Record<string, unknown> = { id: args.id };
        // q with an id searches that session (session_read's q); alone it means the compacted turns.
        for (const key of ['from', 'q', 'view'] as const) if (has(args, key)) pick[key] = args[key];
        return { layer: 'session', result: await run('session_read', pick, exec) };
      }
      if (typeof args.q === 'string') return { layer: 'compacted', result: await run('history_read', { query: args.q }, exec) };
      return { layer: 'sessions', result: await run('session_read', {}, exec) };
    }),
  };

  return [read, save, sync, history];
}
