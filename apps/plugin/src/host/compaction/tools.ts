// history_read: the verbatim wording of turns a compaction folded away. The injected history is a
// few lines of conclusion; this is the original text, and only for when the person asks for it.
import type { CompactionMemory, HistoryReadResult } from '@engram/engine';
import type { ToolDefinition } from '../core/host-types.ts';
import { scopeOf } from './messages.ts';
import { ToolError } from '../tools/memory-tools.ts';

export const HISTORY_READ_TOOL = 'history_read';

export interface CompactionToolDeps {
  memory(): CompactionMemory | null;
}

export function createCompactionTools(deps: CompactionToolDeps): ToolDefinition[] {
  const historyRead: ToolDefinition<{ query?: string; k?: number }, HistoryReadResult> = {
    name: HISTORY_READ_TOOL,
    description:
      '逐字读取本会话里已被上下文压缩掉的早先对话原文(用户的提问与助手的回答)。只在用户明确要求看当时的原话/原文时调用;平时相关的历史结论会自动注入,不需要调用。',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: '要找的那段对话的关键词;留空 = 最近被压缩的几段' },
        k: { type: 'integer', minimum: 1, maximum: 10, description: '最多返回几段,默认 3' },
      },
    },
    output: {
      schema: { type: 'object', properties: { turns: { type: 'array' }, omitted: { type: 'integer' }, text: { type: 'string' } } },
      render: (_args, value) => value.text,
    },
    timeoutMs: 30_000,
    execute: async (args, exec) => {
      const memory = deps.memory();
      if (!memory) throw new ToolError('not-ready', 'compaction memory is not available (the engine is not open, or compaction.enabled is false)');
      const session = exec.agent?.session;
      if (!session?.header?.id) throw new ToolError('no-session', 'history_read needs the calling session');
      const k = typeof args?.k === 'number' && Number.isInteger(args.k) ? Math.min(10, Math.max(1, args.k)) : 3;
      const query = typeof args?.query === 'string' ? args.query : '';
      return memory.historyRead(scopeOf(session), query, k);
    },
  };
  return [historyRead];
}
