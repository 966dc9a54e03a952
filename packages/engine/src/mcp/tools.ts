// The MCP server's tools: the capabilities of the plugin's lean set (recall, search with filters,
// read, write; past DSH sessions where a DSH home exists) as plain functions over one Engine. Every
// operation is the engine's own (recall, memoryIndex, locate, detail, write, edit, forget, the search
// filters, the session readers), so an MCP host and the plugin see the same memories through the same
// gates and write through the same writer lock. Each tool returns the text the model reads and, where
// a program may want it, the structured value. Descriptions are short on purpose: every tool schema is
// paid on every request of the host (see docs/mcp.md for the measured cost).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// A namespace import, not `{ z }`: the `z` object as a value holds every locale, and the compiled
// CLI then loaded them all (~650 KB, shared with the settings' zod/mini) in every command.
import * as z from 'zod';
import type { Engine } from '../engine.ts';
import { EngramError } from '../errors.ts';
import { recallJson } from '../cli/output.ts';
import { pausedForMissingDiary } from '../recall/explain.ts';
import { goneDiaryToolText, listedWhileDiaryGone } from '../diary/errors.ts';
import { GLOBAL_WORKSPACE, type MemoryMeta } from '../diary/meta.ts';
import { filterHits, filterProblem, isFiltering, parseInlineFilters, searchArchive } from '../search/filters.ts';
import { resolveDshHome } from '../sessions/list.ts';
import { sessionTool } from './session-tool.ts';

/** What a tool answers: the text the model reads, and optionally the value a program reads. */
export interface ToolAnswer {
  text: string;
  structured?: Record<string, unknown>;
}

export interface McpToolSpec {
  name: string;
  description: string;
  /** zod shape of the arguments (the SDK validates calls with it and publishes it as JSON Schema). */
  input: z.ZodRawShape;
  run(args: Record<string, unknown>): Promise<ToolAnswer>;
}

export interface McpToolContext {
  engine: Engine;
  /** The workspace recall and search are scoped to (its memories + global); null = all, as the CLI's default. */
  workspace: string | null;
  env?: NodeJS.ProcessEnv;
}

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** A call the engine refuses, said in one line with the code a program can branch on. */
export class ToolRefusal extends EngramError {}

const refuse = (message: string): never => {
  throw new ToolRefusal('invalid-arguments', message);
};

const text = (_name: string) => z.string({ error: '需要字符串 / must be a string' });
const int = () => z.number({ error: '需要整数 / must be an integer' }).int('需要整数 / must be an integer');

/** The recall tool: what the plugin would inject for this message, as the injection block. */
function recallTool(ctx: McpToolContext): McpToolSpec {
  return {
    name: 'recall',
    description: '相关记忆(插件自动注入的那一块):开始一件事或被问到以前的事时,用对方原话调用。',
    input: { message: text('message').min(1, 'message 不能为空 / must not be empty') },
    async run(args) {
      const result = await ctx.engine.recall(String(args.message), { workspace: ctx.workspace });
      if (pausedForMissingDiary(result)) return { text: goneDiaryToolText('search'), structured: recallJson(result) };
      const block = result.hits.length > 0 ? ctx.engine.renderInjection(result) : `没有足够相关的记忆${result.explain.gate.removed > 0 ? `(相关性闸门剔除了 ${result.explain.gate.removed} 条)` : ''}。`;
      return { text: block, structured: recallJson(result) };
    },
  };
}

/** search: summaries and docIds for q (inline filters), or the index (pinned first) without q. */
function searchTool(ctx: McpToolContext): McpToolSpec {
  return {
    name: 'search',
    description: '检索记忆,只给摘要和 docId;q 可带过滤 tag: cat: kind: from: to: ws: min: arch:1;不给 q = 目录(page 翻页)。再用 read 取原文。',
    input: { q: text('q').optional(), page: int().min(1).optional() },
    async run(args) {
      const engine = ctx.engine;
      const raw = typeof args.q === 'string' ? args.q.trim() : '';
      if (raw === '') {
        const page = await engine.memoryIndex({ workspace: ctx.workspace, page: (args.page as number | undefined) ?? 1, pageSize: 20 });
        const gone = engine.diaryFolderGone() !== null;
        const structured = { ...page, ...(gone ? { diaryMissing: true } : {}) };
        if (page.total === 0) return { text: listedWhileDiaryGone(gone, '还没有记忆。'), structured };
        const rows = page.items.map((m, i) => `${(page.page - 1) * page.pageSize + i + 1}. ${m.date} · ${m.title}${m.pinned ? '〔置顶〕' : ''} (docId: ${m.docId})\n   ${oneLine(m.summary, 160)}`);
        const more = page.page < page.pages ? `下一页:search({ page: ${page.page + 1} })` : '';
        return { text: listedWhileDiaryGone(gone, [`记忆目录:共 ${page.total} 条,第 ${page.page}/${page.pages} 页`, ...rows, more].filter(Boolean).join('\n')), structured };
      }
      const { query, filter } = parseInlineFilters(raw);
      const problem = filterProblem(filter);
      if (problem) refuse(problem);
      // No k knob (as in the plugin's lean set): the configured recall size applies.
      const k = engine.config.recall.kMax;
      let hits: { docId: string; date: string; title: string; score: number; summary: string; kind?: string; goal?: string }[];
      let gated = 0;
      let gone: boolean;
      if (filter.archived) {
        hits = await searchArchive(engine, query, filter, k, ctx.workspace);
        // Read from the index: found while the folder is gone, but not on disk.
        gone = engine.diaryFolderGone() !== null;
      } else {
        if (query === '') refuse('q 除过滤外还需要检索词 / q needs words besides its filters');
        // A filtered search asks recall for its most candidates and keeps the ones that pass (as the plugin does).
        const filtering = isFiltering(filter);
        const result = await engine.recall(query, { ...(filtering ? { k: 20 } : {}), workspace: ctx.workspace, typedAs: 'search' });
        const kept = filtering ? filterHits(result.hits, filter, k) : result.hits;
        const summaries = await engine.summariesOf(kept.map((h) => h.docId));
        hits = kept.map((h) => ({ docId: h.docId, date: h.date, title: h.title, score: h.score, summary: summaries.get(h.docId)?.summary || h.text, ...(h.kind ? { kind: h.kind } : {}), ...(h.goal ? { goal: h.goal } : {}) }));
        gated = result.explain.gate.removed;
        gone = pausedForMissingDiary(result);
      }
      const structured = { query, hits, gated, ...(gone ? { diaryMissing: true } : {}) };
      // Nothing found with the folder gone says why: an empty answer alone reads as "no such memory".
      if (hits.length === 0 && gone) return { text: goneDiaryToolText('search'), structured };
      if (hits.length === 0) return { text: gated > 0 ? `没有足够相关的记忆(相关性闸门剔除了 ${gated} 条候选)。` : '没有找到相关记忆。', structured };
      const rows = hits.map((h, i) => `[${i + 1}] ${h.date} · ${h.title}${h.kind ? `〔${h.kind}〕` : ''}${filter.archived ? '〔已归档〕' : ''} (docId: ${h.docId})\n${oneLine(h.summary, 300)}${h.goal ? `\n目标:${oneLine(h.goal, 120)}` : ''}`);
      return { text: listedWhileDiaryGone(gone, [...rows, '细节:read({ id, q }) 定位段号 → read({ id, seg }) 取段;短记忆 read({ id })。'].join('\n\n')), structured };
    },
  };
}

/** read: one memory's segments located by q, the chosen segments, or the whole text. */
function readTool(ctx: McpToolContext): McpToolSpec {
  return {
    name: 'read',
    description: '读一篇记忆:id+q 定位段号,id+seg 取那几段,只给 id 取全文。',
    input: { id: text('id').min(1, 'id 不能为空 / must not be empty'), q: text('q').optional(), seg: z.array(int().min(0), { error: 'seg 是段号数组 / seg is a list of segment numbers' }).optional() },
    async run(args) {
      const id = String(args.id).trim();
      await visible(ctx, id);
      const q = typeof args.q === 'string' ? args.q.trim() : '';
      if (q !== '' && args.seg === undefined) {
        const v = await ctx.engine.locate(id, q);
        const head = `${v.date} · ${v.title} (docId: ${v.docId}),共 ${v.segmentCount} 段、${v.chars} 字`;
        if (v.hits.length === 0) return { text: `${head}\n没有段落提到「${v.query}」。可换个词,或 read({ id: "${v.docId}" }) 取全文。`, structured: { ...v } };
        const rows = v.hits.map((h) => `[段 ${h.index}] ${h.heading || '(开头)'} · ${h.chars} 字 · 命中 ${h.matched.join(' ')}\n  ${h.preview}`);
        return { text: [head, ...rows, `取段:read({ id: "${v.docId}", seg: [${v.hits.slice(0, 2).map((h) => h.index).join(', ')}] })`].join('\n'), structured: { ...v } };
      }
      const v = await ctx.engine.detail(id, args.seg as number[] | undefined);
      const head = v.whole
        ? `${v.date} · ${v.title} (docId: ${v.docId}, ${v.path}) 全文 ${v.chars} 字`
        : `${v.date} · ${v.title} (docId: ${v.docId}) 第 ${v.segments.map((s) => s.index).join('、')} 段(共 ${v.segmentCount} 段)`;
      return { text: `${head}\n\n${v.text}`, structured: { ...v } };
    },
  };
}

const notFound = (id: string) => new EngramError('not-found', `没有 id 或路径为「${id}」的记忆 / no memory with id or path "${id}"`);

/** Another workspace's memory is "not found" to a scoped server, as it is to a plugin session. */
async function visible(ctx: McpToolContext, id: string): Promise<void> {
  if (ctx.workspace === null) return;
  const doc = await ctx.engine.resolve(id);
  if (doc && doc.workspace !== ctx.workspace && doc.workspace !== GLOBAL_WORKSPACE) throw notFound(id);
}

/**
 * Forget, scoped: an id that resolves to nothing may be the one an archived memory had before it was
 * archived, and the engine then says so with that memory's title — another workspace's title, unless
 * the archived memory is checked too.
 */
async function forgetVisible(ctx: McpToolContext, id: string): Promise<{ docId: string; from: string; to: string }> {
  try {
    return await ctx.engine.forget(id);
  } catch (e) {
    if (ctx.workspace !== null && e instanceof EngramError && e.code === 'already-archived') {
      const archivedId = e.details?.docId;
      const doc = typeof archivedId === 'string' ? await ctx.engine.resolve(archivedId) : null;
      if (!doc || (doc.workspace !== ctx.workspace && doc.workspace !== GLOBAL_WORKSPACE)) throw notFound(id);
    }
    throw e;
  }
}

/** write: a new memory, one passage replaced, a memory superseded, or one archived. */
function writeTool(ctx: McpToolContext): McpToolSpec {
  return {
    name: 'write',
    // kind / goal ride in the text's closing Meta line (no parameters: every schema token is paid on every request).
    description: '写记忆:content 新篇(首行标题,末行 Tag: a, b,可再加一行 Meta: kind=task; goal=…);id+target+content 把 target(逐字)换成 content;id+content 取代旧篇;id+forget 归档;global 所有项目可见。',
    input: { content: text('content').optional(), id: text('id').optional(), target: text('target').optional(), forget: z.boolean({ error: '需要 true/false' }).optional(), global: z.boolean({ error: '需要 true/false' }).optional() },
    async run(args) {
      const engine = ctx.engine;
      const content = args.content as string | undefined;
      const id = typeof args.id === 'string' && args.id.trim() !== '' ? args.id.trim() : undefined;
      if (id) await visible(ctx, id);
      if (id && args.forget === true) {
        const r = await forgetVisible(ctx, id);
        return { text: `已归档:${r.from} → ${r.to}`, structured: { ...r } };
      }
      if (id && args.target !== undefined) {
        const r = await engine.edit(id, String(args.target), content ?? '');
        return { text: `已修改:${r.path} (docId: ${r.docId})`, structured: { ...r } };
      }
      if (args.target !== undefined || args.forget === true) refuse('target 和 forget 需要记忆的 id / "target" and "forget" need the "id" of the memory');
      if (content === undefined || content.trim() === '') refuse('需要 content(记忆正文)/ "content" must be a non-empty string');
      const workspace = args.global === true || ctx.workspace === null ? GLOBAL_WORKSPACE : ctx.workspace;
      const meta: Partial<MemoryMeta> = { workspace, origin: 'agent' };
      if (id) {
        const old = await engine.resolve(id);
        if (!old) throw new EngramError('not-found', `没有可取代的记忆「${id}」/ no memory "${id}" to supersede`);
        meta.supersedes = [old.id];
      }
      const r = await engine.write({ content: content!, meta });
      const lines = [`已保存:${r.path} (docId: ${r.docId}${r.merged ? ',并入了相近的旧记忆' : ''})`, ...r.warnings.map((w) => `提示:${w}`)];
      return { text: lines.join('\n'), structured: { ...r } };
    },
  };
}

/** The DSH home whose sessions session_read reads, or null when there is none on this machine. */
export function dshSessionsHome(engine: Engine, env: NodeJS.ProcessEnv = process.env): string | null {
  const home = resolveDshHome(engine.config.sessions.dshHome, env);
  return existsSync(join(home, 'sessions')) ? home : null;
}

/** The tools this server offers: session_read only where a DSH home with sessions exists. */
export function mcpTools(ctx: McpToolContext): McpToolSpec[] {
  const home = dshSessionsHome(ctx.engine, ctx.env);
  return [recallTool(ctx), searchTool(ctx), readTool(ctx), writeTool(ctx), ...(home ? [sessionTool(ctx, home)] : [])];
}
