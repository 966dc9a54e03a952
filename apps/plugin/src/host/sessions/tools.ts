// session_read: the workspace's past DSH sessions, read from the host's own logs on disk. Without
// an id it lists them; with an id (or its first characters) it returns the session's turns — the
// person's words, the final answers, the tools used; never thinking text or injected fragments.
import {
  findSessionFiles,
  formatSessionList,
  listSessions,
  loadSession,
  resolveDshHome,
  sessionReadPage,
  type SessionListItem,
} from '@engram/engine';
import type { ToolDefinition, ToolExec } from '../core/host-types.ts';
import { ToolError } from '../tools/memory-tools.ts';

export const SESSION_READ_TOOL = 'session_read';

/** The part of EngramConfig the tool reads (EngramConfig satisfies it). */
export interface SessionToolConfig {
  sessions: { dshHome: string; readMaxChars: number };
  inject?: { blockName?: string };
}

export interface SessionToolDeps {
  /** Current config; null while the engine is not open (defaults are used then). */
  config(): SessionToolConfig | null;
  /** Other folders of the calling session's workspace (worktrees, a moved checkout). */
  workspacePaths?(cwd: string): readonly string[];
  /** For tests: where $DSH_HOME is looked up. */
  env?: NodeJS.ProcessEnv;
}

export type SessionReadValue =
  | { kind: 'list'; scope: string | null; total: number; sessions: Pick<SessionListItem, 'id' | 'title' | 'turns' | 'startedAt' | 'cwd'>[]; text: string }
  | { kind: 'session'; id: string; title: string; from: number; to: number; total: number; nextFrom: number | null; text: string };

const DEFAULTS: SessionToolConfig = { sessions: { dshHome: '', readMaxChars: 8000 } };

const positiveInt = (value: unknown, name: string): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ToolError('invalid-arguments', `"${name}" must be a turn number ≥ 1`);
  return value;
};

export function sessionToolSpecs(deps: SessionToolDeps): ToolDefinition[] {
  const settings = () => {
    const config = deps.config() ?? DEFAULTS;
    const blockName = config.inject?.blockName?.trim();
    return {
      home: resolveDshHome(config.sessions.dshHome, deps.env ?? process.env),
      maxChars: config.sessions.readMaxChars,
      injectedTags: blockName ? [blockName] : [],
    };
  };

  const read: ToolDefinition<{ id?: string; from?: number; to?: number }, SessionReadValue> = {
    name: SESSION_READ_TOOL,
    description:
      '读取本工作区过去的 DSH 会话记录(用户的原话、助手每轮的最终回答、用过的工具;不含思考过程和插件注入的内容)。' +
      '不给 id:列出本工作区的历史会话(新的在前),附 id 前 8 位;给 id(或它的前几位):按轮返回那次会话的对话,内容多时用 from/to 翻页。' +
      '只在用户提到以前的某次会话、需要当时的原话或细节时调用;相关的记忆通常已自动注入。',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string', description: '会话 id 或其前几位(来自不带参数的 session_read 列表);省略 = 列出本工作区的会话' },
        from: { type: 'integer', minimum: 1, description: '从第几轮开始(默认第 1 轮)' },
        to: { type: 'integer', minimum: 1, description: '到第几轮为止(含);省略 = 尽量多,受字数上限约束' },
      },
    },
    output: {
      schema: { type: 'object', properties: { kind: { type: 'string' }, text: { type: 'string' } } },
      render: (_args, value) => value.text,
    },
    timeoutMs: 30_000,
    execute: async (args, exec: ToolExec) => {
      const { home, maxChars, injectedTags } = settings();
      const header = exec.agent?.session?.header;
      const cwd = typeof header?.cwd === 'string' && header.cwd.trim() !== '' ? header.cwd : null;
      const id = typeof args.id === 'string' ? args.id.trim() : '';
      if (args.id !== undefined && typeof args.id !== 'string') throw new ToolError('invalid-arguments', '"id" must be a session id (string)');
      const from = positiveInt(args.from, 'from');
      const to = positiveInt(args.to, 'to');
      if (from !== undefined && to !== undefined && to < from) throw new ToolError('invalid-arguments', '"to" must not be smaller than "from"');

      if (id === '') {
        // Without a cwd there is no workspace to narrow to: every session is listed, and the text says so.
        const items = await listSessions(home, { cwd: cwd ?? undefined, workspacePaths: cwd ? (deps.workspacePaths?.(cwd) ?? []) : [], injectedTags });
        const text = formatSessionList(items, { maxChars, currentId: header?.id, scope: cwd ?? '全部工作区' });
        return {
          kind: 'list',
          scope: cwd,
          total: items.length,
          sessions: items.map((i) => ({ id: i.id, title: i.title, turns: i.turns, startedAt: i.startedAt, cwd: i.cwd })),
          text,
        };
      }

      const files = await findSessionFiles(home, id, { injectedTags });
      if (files.length === 0) throw new ToolError('not-found', `no session with id or prefix "${id}" under ${home}; call session_read without an id to list this workspace's sessions`);
      if (files.length > 1) {
        const names = files.slice(0, 8).map((f) => f.dirName).join(', ');
        throw new ToolError('ambiguous', `"${id}" matches ${files.length} sessions (${names}${files.length > 8 ? ', …' : ''}); give more characters of the id`);
      }
      let log;
      try {
        log = await loadSession(files[0]!.file, { fallbackId: files[0]!.dirName, injectedTags });
      } catch (error) {
        throw new ToolError('unreadable', `the session log could not be read (${error instanceof Error ? error.message : String(error)})`);
      }
      const page = sessionReadPage(log, { turns: from !== undefined || to !== undefined ? [from ?? 1, to] : undefined, maxChars });
      return { kind: 'session', id: log.id, title: log.title, from: page.from, to: page.to, total: page.total, nextFrom: page.nextFrom, text: page.text };
    },
  };

  // The host hands over whatever the model produced: a JSON null, a number or an array is not a call.
  return [read].map((tool) => ({
    ...tool,
    execute: (args: unknown, exec: ToolExec) =>
      args === undefined || args === null || (typeof args === 'object' && !Array.isArray(args))
        ? tool.execute((args ?? {}) as never, exec)
        : Promise.reject(new ToolError('invalid-arguments', `${tool.name} takes a JSON object of arguments`)),
  }));
}
