// What the host registers itself, so plugins meet a realistic neighbourhood: an identity section
// ahead of theirs, a working-directory context that shares the snapshot with theirs, and the
// `todo_write` tool whose calls log `todo/write` (the event a phase-change trigger should read).
import type { Context } from './context.ts';
import type { SimSession } from './session.ts';
import type { SystemPromptService } from './services/system-prompt.ts';
import type { ToolsService } from './services/tools.ts';
import type { TodoItem } from './types.ts';

const TODO_STATUSES = new Set(['pending', 'in_progress', 'completed']);

export interface BuiltinsInput {
  root: Context;
  systemPrompt: SystemPromptService;
  toolsService: ToolsService | undefined;
  identity: boolean;
  contexts: boolean;
  tools: boolean;
}

export function normaliseTodos(list: unknown[]): TodoItem[] {
  return list.map((item, i) => {
    const { content, status } = (item ?? {}) as Partial<TodoItem>;
    if (typeof content !== 'string' || !TODO_STATUSES.has(status as string)) {
      throw new Error(`todos[${i}] needs content and a status of pending | in_progress | completed`);
    }
    return { content, status: status as TodoItem['status'] };
  });
}

export function installBuiltins(input: BuiltinsInput): void {
  const { root, systemPrompt, toolsService } = input;
  if (input.identity) {
    root.track(systemPrompt.section({ name: 'harness:identity', order: -1000, text: 'You are an AI agent powered by DeepSeek Harness.' }));
  }
  if (input.contexts) {
    root.track(
      systemPrompt.context({
        name: 'working-directory',
        order: -100,
        text: (context) => {
          const cwd = (context.agent?.session as SimSession | undefined)?.header.cwd;
          return cwd ? `Working directory: ${cwd}` : '';
        },
      }),
    );
  }
  if (input.tools && toolsService) {
    root.track(
      toolsService.register({
        name: 'todo_write',
        description: 'Replace the session todo list.',
        parameters: {
          type: 'object',
          required: ['todos'],
          properties: {
            todos: {
              type: 'array',
              items: { type: 'object', required: ['content', 'status'], properties: { content: { type: 'string' }, status: { type: 'string', enum: [...TODO_STATUSES] } } },
            },
          },
        },
        output: { schema: { type: 'string' }, render: (_args: unknown, value: string) => [{ type: 'text', text: value }] },
        execute: (args: { todos: unknown[] }, exec) => {
          const todos = normaliseTodos(args.todos);
          (exec.agent as { session?: SimSession } | undefined)?.session?.appendEvent('todo/write', { todos });
          const done = todos.filter((t) => t.status === 'completed').length;
          return `Todos updated (${done}/${todos.length} completed).`;
        },
      }),
    );
  }
}
