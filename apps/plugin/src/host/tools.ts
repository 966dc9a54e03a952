// Tier 3: tools the model calls when the automatic recall is not enough, and the fallback write
// channel (Engine.write / Engine.edit: the same writer the semantic blocks go through). Every tool
// has a JSON Schema for its parameters, returns a typed value and renders it as text; a failure is
// thrown as an error whose message starts with a stable code and says what to do instead.
import { formatItemPrefix, type Engine, type EngineStatus, type MemorySummary, type WriteInput } from '@engram/engine';
import type { ToolDefinition } from './host-types.ts';

export const TOOL_NAMES = ['engram_search', 'engram_read', 'engram_write', 'engram_edit', 'engram_list', 'engram_forget', 'engram_status'] as const;

export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`[${code}] ${message}`);
    this.name = 'ToolError';
  }
}

export interface ToolDeps {
  engine(): Engine | null;
}

function need<T>(value: T | null, what = 'the memory engine'): T {
  if (value === null) throw new ToolError('not-ready', `${what} is not ready yet (it may still be opening, or failed to open: see the plugin log)`);
  return value;
}

/** Rethrows engine errors with their code in the message, which is all the model gets to see. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ToolError) throw error;
    const code = (error as { code?: unknown })?.code;
    throw new ToolError(typeof code === 'string' ? code : 'failed', error instanceof Error ? error.message : String(error));
  }
}

const nonEmpty = (value: unknown, name: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw new ToolError('invalid-arguments', `"${name}" must be a non-empty string`);
  return value;
};

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const stringList = (value: unknown): string[] | undefined => {
  const list = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()) : [];
  return list.length > 0 ? list : undefined;
};

export interface SearchHit {
  docId: string;
  date: string;
  title: string;
  category: string;
  tags: string[];
  score: number;
  text: string;
}

export interface SearchValue {
  query: string;
  hits: SearchHit[];
  /** Candidates the relevance gates removed (0 hits with gated > 0 = nothing relevant enough). */
  gated: number;
}

export interface ListValue {
  total: number;
  items: Pick<MemorySummary, 'docId' | 'date' | 'title' | 'category' | 'tags' | 'archived'>[];
}

const summaryItem = (m: MemorySummary) => ({ docId: m.docId, date: m.date, title: m.title, category: m.category, tags: m.tags, archived: m.archived });

export function createTools(deps: ToolDeps): ToolDefinition[] {
  const engine = () => need(deps.engine());

  const search: ToolDefinition<{ query: string; k?: number }, SearchValue> = {
    name: 'engram_search',
    description: '检索长期记忆(日记)。相关记忆通常已自动注入对话;只在不够用、或需要换个角度查找时调用。返回按相关度排序的片段及其 docId。',
    parameters: {
      type: 'object',
      required: ['query'],
      properties: {
        query: { type: 'string', description: '检索内容:具体的名称、事件或关键词效果最好' },
        k: { type: 'integer', minimum: 1, maximum: 20, description: '最多返回几条(默认由配置决定)' },
      },
    },
    output: {
      schema: { type: 'object', properties: { query: { type: 'string' }, hits: { type: 'array' }, gated: { type: 'integer' } } },
      render: (_args, value) => {
        if (value.hits.length === 0) {
          return value.gated > 0 ? `没有足够相关的记忆(相关性闸门剔除了 ${value.gated} 条候选)。` : '没有找到相关记忆。';
        }
        return value.hits
          .map((h, i) => `${formatItemPrefix('[{n}] {date} · {title}', i + 1, h)} (docId: ${h.docId})\n${h.text.trim()}`)
          .join('\n\n');
      },
    },
    timeoutMs: 30_000,
    execute: (args) =>
      guarded(async () => {
        const query = nonEmpty(args.query, 'query');
        const k = typeof args.k === 'number' && Number.isInteger(args.k) ? Math.min(20, Math.max(1, args.k)) : undefined;
        const result = await engine().recall(query, k !== undefined ? { k } : {});
        return {
          query,
          gated: result.explain.gate.removed,
          hits: result.hits.map((h) => ({ docId: h.docId, date: h.date, title: h.title, category: h.category, tags: h.tags, score: h.score, text: h.text })),
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
    execute: (args) =>
      guarded(async () => {
        const id = nonEmpty(args.id, 'id');
        const detail = await engine().read(id);
        if (!detail) throw new ToolError('not-found', `no memory with id or path "${id}"; use engram_search or engram_list to find its docId`);
        return { docId: detail.docId, title: detail.title, date: detail.date, path: detail.path, category: detail.category, tags: detail.tags, archived: detail.archived, raw: detail.raw };
      }),
  };

  const write: ToolDefinition<{ content: string; title?: string; summary?: string; tags?: string[]; folder?: string }> = {
    name: 'engram_write',
    description: '新写一篇日记并立即建索引。通常更推荐在回复末尾写 <<<DailyNoteStart>>> 语义块;同名标题已存在时会被拒绝,请改用 engram_edit。',
    parameters: {
      type: 'object',
      required: ['content'],
      properties: {
        content: { type: 'string', description: '完整日记正文:[HH:MM] 标题、> 摘要、正文、末行 Tag: a, b' },
        title: { type: 'string', description: '省略则从正文首行推断' },
        summary: { type: 'string', description: '省略则取正文开头' },
        tags: { type: 'array', items: { type: 'string' }, description: '省略则从末行 Tag 解析' },
        folder: { type: 'string', description: '分类子目录,省略则用默认分类' },
      },
    },
    output: {
      schema: { type: 'object', properties: { docId: { type: 'string' }, path: { type: 'string' }, warnings: { type: 'array' } } },
      render: (_args, value: { docId: string; path: string; warnings: string[]; semanticIndexed: boolean }) =>
        [`已保存:${value.path} (docId: ${value.docId})`, ...value.warnings.map((w) => `提示:${w}`), value.semanticIndexed ? '' : '(目前只有关键词检索可以找到它)']
          .filter(Boolean)
          .join('\n'),
    },
    timeoutMs: 60_000,
    execute: (args) =>
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
        return engine().write(input);
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
    execute: (args) =>
      guarded(async () => {
        if (typeof args.replace !== 'string') throw new ToolError('invalid-arguments', '"replace" must be a string (empty deletes the passage)');
        return engine().edit(nonEmpty(args.id, 'id').trim(), nonEmpty(args.target, 'target'), args.replace);
      }),
  };

  const list: ToolDefinition<{ filter?: string; folder?: string; limit?: number; includeArchived?: boolean }, ListValue> = {
    name: 'engram_list',
    description: '列出日记(新的在前),可按标题/标签关键词或分类过滤。',
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
        value.items.length === 0
          ? '没有符合条件的日记。'
          : [
              `共 ${value.total} 篇${value.total > value.items.length ? `,显示前 ${value.items.length} 篇` : ''}:`,
              ...value.items.map((m) => `- ${m.date} · ${m.title}${m.category ? ` [${m.category}]` : ''}${m.archived ? ' (已归档)' : ''} (docId: ${m.docId})`),
            ].join('\n'),
    },
    execute: (args) =>
      guarded(async () => {
        const filter = typeof args.filter === 'string' ? args.filter.trim().toLowerCase() : '';
        const folder = typeof args.folder === 'string' ? args.folder.trim() : '';
        const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? Math.min(200, Math.max(1, args.limit)) : 30;
        const all = (await engine().list({ includeArchived: args.includeArchived === true })).filter(
          (m) =>
            (folder === '' || m.category === folder || m.category.startsWith(`${folder}/`)) &&
            (filter === '' || m.title.toLowerCase().includes(filter) || m.tags.some((t) => t.toLowerCase().includes(filter))),
        );
        return { total: all.length, items: all.slice(0, limit).map(summaryItem) };
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
    execute: (args) => guarded(async () => engine().forget(nonEmpty(args.id, 'id'))),
  };

  const status: ToolDefinition<Record<string, never>> = {
    name: 'engram_status',
    description: '记忆库状态:日记篇数、索引块数、向量、分词器、语义通道。',
    parameters: { type: 'object', properties: {} },
    output: {
      schema: { type: 'object' },
      render: (_args, s: EngineStatus) =>
        [
          `日记 ${s.documents} 篇(已归档 ${s.archived}),索引 ${s.chunks} 块,向量 ${s.vectors} 条`,
          `分词器 ${s.tokenizer.active}${s.tokenizer.fallbackReason ? `(${s.tokenizer.fallbackReason})` : ''}`,
          `语义通道 ${s.semantic.state}${s.semantic.reason ? `:${s.semantic.reason}` : ''}`,
          s.builtAt ? `上次建索引 ${s.builtAt}` : '尚未建过索引',
          ...s.warnings.slice(0, 5).map((w) => `提示:${w}`),
        ].join('\n'),
    },
    execute: () => guarded(async () => engine().status()),
  };

  return [search, read, write, edit, list, forget, status];
}
