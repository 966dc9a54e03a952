// session_read: the workspace's past DSH sessions, read from the host's own logs on disk. Without
// an id it lists them; with an id (or its first characters) it returns the session's turns — the
// person's words, the final answers, the tools used. A memory's id opens the session the memory came
// from, where it came from; `q` finds the turns about some words (the engine's tokenizer); `view`
// adds the model's reasoning (thinking) or shows the stored messages themselves (raw). Log shapes:
// packages/core/session/src/types.ts and packages/llm/llm/src/types.ts in the host repository.
import {
  formatSessionList,
  listSessions,
  memoryLookup,
  readSessionById,
  resolveDshHome,
  SESSION_VIEWS,
  visibleIn,
  isEngramError,
  fallbackTokenizer,
  type MemoryDetail,
  type SessionListItem,
  type SessionReadAnswer,
  type SessionReadDeps,
  type SessionView,
} from '@engram/engine';
import type { ToolDefinition, ToolExec } from '../core/host-types.ts';
import { ToolError } from '../tools/memory-tools.ts';
import type { SessionScope } from '../workspace/scope.ts';

export const SESSION_READ_TOOL = 'session_read';

/** The part of EngramConfig the tool reads (EngramConfig satisfies it). */
export interface SessionToolConfig {
  sessions: { dshHome: string; readMaxChars: number };
  inject?: { blockName?: string };
  workspace?: { scoped?: boolean };
}

/** What the tool needs of an open engine: its settings, tokenizer and memory reader. */
export interface SessionToolEngine {
  readonly config: SessionToolConfig;
  readonly tokenizer: ReturnType<SessionReadDeps['tokenizer']>;
  /** The zone the data directory was set up in: session times are shown in it. */
  readonly timeZone?: string;
  read(idOrPath: string): Promise<MemoryDetail | null>;
}

export interface SessionToolDeps {
  /** Current config; null while the engine is not open (defaults are used then). */
  config(): SessionToolConfig | null;
  /** The open engine: memory ids and the engine's tokenizer. Without it, ids are sessions only. */
  engine?(): SessionToolEngine | null;
  /** The calling session's scope: another workspace's memory is not a memory to it. */
  scope?(exec: ToolExec | undefined): Promise<SessionScope>;
  /** Other folders of the calling session's workspace (worktrees, a moved checkout). */
  workspacePaths?(cwd: string): readonly string[];
  /** For tests: where $DSH_HOME is looked up. */
  env?: NodeJS.ProcessEnv;
}

export type SessionReadValue =
  | { kind: 'list'; scope: string | null; total: number; sessions: Pick<SessionListItem, 'id' | 'title' | 'turns' | 'startedAt' | 'cwd'>[]; text: string }
  | SessionReadAnswer;

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

  const read: ToolDefinition<{ id?: string; from?: number; to?: number; q?: string; view?: SessionView }, SessionReadValue> = {
    name: SESSION_READ_TOOL,
    description:
      '读取本工作区过去的 DSH 会话记录(用户的原话、助手每轮的最终回答、用过的工具)。' +
      '不给 id:列出本工作区的历史会话(新的在前);给会话 id(或前几位):按轮返回对话,from/to 翻页;给记忆 docId:打开它出处的会话,定位到它来自的那几轮。' +
      'q:只看这次会话里提到这些词的轮次(附前后文);view:"thinking" 加上当时的思考,"raw" 看原始消息(含工具调用与结果)。' +
      '只在需要当时的原话或细节时调用;相关的记忆通常已自动注入。',
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string', description: '会话 id 或其前几位,或一条记忆的 docId;省略 = 列出本工作区的会话' },
        from: { type: 'integer', minimum: 1, description: '从第几轮开始' },
        to: { type: 'integer', minimum: 1, description: '到第几轮为止(含)' },
        q: { type: 'string', description: '在这次会话里搜的词' },
        view: { type: 'string', enum: [...SESSION_VIEWS], description: 'turns(默认)/ thinking / raw' },
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
      if (args.id !== undefined && typeof args.id !== 'string') throw new ToolError('invalid-arguments', '"id" must be a session id or a memory id (string)');
      const from = positiveInt(args.from, 'from');
      const to = positiveInt(args.to, 'to');
      if (from !== undefined && to !== undefined && to < from) throw new ToolError('invalid-arguments', '"to" must not be smaller than "from"');

      if (id === '' && typeof args.q === 'string' && args.q.trim() !== '')
        throw new ToolError('invalid-arguments', '"q" searches inside one session: give its "id" (call session_read without arguments to list them)');
      if (id === '') {
        // Without a cwd there is no workspace to narrow to: every session is listed, and the text says so.
        const items = await listSessions(home, { cwd: cwd ?? undefined, workspacePaths: cwd ? (deps.workspacePaths?.(cwd) ?? []) : [], injectedTags });
        // Times in the zone the data directory was set up in (the engine's), as memory dates are.
        const text = formatSessionList(items, { maxChars, currentId: header?.id, scope: cwd ?? '全部工作区', timeZone: deps.engine?.()?.timeZone });
        return {
          kind: 'list',
          scope: cwd,
          total: items.length,
          sessions: items.map((i) => ({ id: i.id, title: i.title, turns: i.turns, startedAt: i.startedAt, cwd: i.cwd })),
          text,
        };
      }

      if (args.q !== undefined && typeof args.q !== 'string') throw new ToolError('invalid-arguments', '"q" must be a string');
      if (args.view !== undefined && !(SESSION_VIEWS as readonly unknown[]).includes(args.view)) throw new ToolError('invalid-arguments', `"view" must be one of ${SESSION_VIEWS.join(', ')}`);
      const engine = deps.engine?.() ?? null;
      let memory: ((id: string) => ReturnType<ReturnType<typeof memoryLookup>>) | undefined;
      if (engine) {
        const scope = deps.scope ? await deps.scope(exec).catch(() => null) : null;
        // Scoping off in the settings: every memory is the caller's, as in the memory tools.
        const workspace = engine.config.workspace?.scoped === false ? null : (scope?.workspace ?? null);
        memory = memoryLookup(engine, (ws) => visibleIn({ workspace }, ws));
      }
      try {
        return await readSessionById(
          { id, from, to, q: typeof args.q === 'string' ? args.q : undefined, view: args.view },
          { home, maxChars, injectedTags, tokenizer: () => engine?.tokenizer ?? fallbackTokenizer(), timeZone: engine?.timeZone, ...(memory ? { memory } : {}) },
        );
      } catch (error) {
        if (isEngramError(error)) throw new ToolError(error.code, error.message);
        throw error;
      }
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
