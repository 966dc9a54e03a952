// Cross-session tools: engram_brief (what other sessions wrote since this one last synced),
// engram_wall (messages between sessions) and engram_notebook (this session's private books).
// Every call acts for the calling session only: its id and cwd come from the host
// (exec.agent.session.header), never from the arguments, so no session can read or write another's
// notebook or sync cursor through these tools. The workspace id comes from `workspaceOf`.
import { CrossSession, formatProvenance, wallLine, type BriefResult, type Engine, type NotebookReadResult, type NotebookWriteResult, type SessionScope, type WallItem } from '@engram/engine';
import { scopeOf } from '../compaction/messages.ts';
import { toHostTool } from '../tools/tool-output.ts';
import type { HostContext, HostLogger, HostSession, ToolDefinition, ToolExec } from '../core/host-types.ts';
import { errorText } from '../core/log.ts';
import { guarded, ToolError } from '../tools/memory-tools.ts';

export { formatProvenance };

export const BRIEF_TOOL = 'engram_brief';
export const WALL_TOOL = 'engram_wall';
export const NOTEBOOK_TOOL = 'engram_notebook';
export const CROSS_SESSION_TOOL_NAMES = [BRIEF_TOOL, WALL_TOOL, NOTEBOOK_TOOL] as const;

/** The workspace id of a session (null/'' = none known: only global memories are then visible). */
export type WorkspaceOf = (session: HostSession) => string | null | undefined | Promise<string | null | undefined>;

export interface CrossSessionToolDeps {
  engine(): Engine | null;
  workspaceOf: WorkspaceOf;
}

const services = new WeakMap<Engine, CrossSession>();

/**
 * The one CrossSession of an engine: tools and the prompt section share it, so writes to a book
 * queue behind each other whichever of them started them.
 */
export function crossSessionOf(engine: Engine): CrossSession {
  let service = services.get(engine);
  if (!service) {
    service = new CrossSession({ engine });
    services.set(engine, service);
  }
  return service;
}

interface Caller {
  session: HostSession;
  sessionId: string;
  workspace: string;
  /** The compaction channel's per-session scope (cwd + id): where the notebook lives. */
  scope: SessionScope;
}

async function callerOf(deps: CrossSessionToolDeps, exec: ToolExec, tool: string): Promise<{ service: CrossSession; caller: Caller }> {
  const engine = deps.engine();
  if (!engine) throw new ToolError('not-ready', 'the memory engine is not ready yet (it may still be opening, or failed to open: see the plugin log)');
  const session = exec?.agent?.session;
  if (!session?.header?.id) throw new ToolError('no-session', `${tool} needs the calling session`);
  const workspace = (await deps.workspaceOf(session))?.trim() || 'global';
  return { service: crossSessionOf(engine), caller: { session, sessionId: session.header.id, workspace, scope: scopeOf(session) } };
}

const optionalText = (value: unknown, name: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolError('invalid-arguments', `"${name}" must be a string`);
  return value;
};

export type WallValue = { kind: 'posted'; message: WallItem } | { kind: 'read'; messages: WallItem[] };

export type NotebookValue = ({ kind: 'read' } & NotebookReadResult) | ({ kind: 'written' } & NotebookWriteResult);

const BOOK_NAMES: Record<string, string> = { notes: '私密笔记', rules: '本会话规则', minor: '次要规则' };

const EMPTY_BOOK: Record<string, string> = {
  notes: '私密笔记是空的。',
  rules: '本会话规则是空的:写进去的规矩会在每次组装提示词时注入,优先级最高。',
  minor: '次要规则是空的:上下文压缩时会从摘要里自动归纳。',
};

export function createCrossSessionTools(deps: CrossSessionToolDeps): ToolDefinition[] {
  const brief: ToolDefinition<Record<string, never>, BriefResult> = {
    name: BRIEF_TOOL,
    description:
      '同步其他会话的动静:自本会话上次同步以来,其他会话写下或改动的记忆(本工作区 + global;按会话分组,每个会话列最新两条,带会话短 id)、' +
      '距上次同步过了多久,以及墙上最新三条留言(指名给你的标「给你」)。用户问起别的会话在做什么、或要接着别的会话的工作时调用;调用后同步点自动推进,同样的内容不会再出现。' +
      '只看得到写进了记忆的事。',
    parameters: { type: 'object', properties: {} },
    output: {
      schema: { type: 'object', properties: { groups: { type: 'array' }, wall: { type: 'array' }, text: { type: 'string' } } },
      render: (_args, value) => value.text,
    },
    timeoutMs: 30_000,
    execute: (_args, exec) =>
      guarded(async () => {
        const { service, caller } = await callerOf(deps, exec, BRIEF_TOOL);
        return service.brief(caller.sessionId, caller.workspace);
      }),
  };

  const wall: ToolDefinition<{ say?: string; to?: string; k?: number }, WallValue> = {
    name: WALL_TOOL,
    description:
      '会话之间的留言板(建议、提醒、回应)。传 say 就是留言,不传就是看墙:公开的、指名给本会话或本工作区的,以及自己发的,新的在前。' +
      'to:不写 = 所有人;会话 id 或它的前缀(至少 6 位,也可写成 s:前缀);工作区 id(也可写成 ws:id)。' +
      '对方要等下次调用 engram_brief 或 engram_wall 才看得到:写清楚对谁、因为什么。',
    parameters: {
      type: 'object',
      properties: {
        say: { type: 'string', maxLength: 2000, description: '要留的话(不超过 2000 字);不传 = 看墙' },
        to: { type: 'string', description: '收件人:会话 id / 前缀(≥ 6 位)、工作区 id;不写 = 所有人' },
        k: { type: 'integer', minimum: 1, maximum: 50, description: '看墙时最多几条,默认 5' },
      },
    },
    output: {
      schema: { type: 'object', properties: { kind: { type: 'string' } } },
      render: (_args, value) => {
        if (value.kind === 'posted') return `已留言给${value.message.to}(会话 s:${value.message.fromShort} 发出)。对方下次调用 engram_brief 或 engram_wall 时会看到。`;
        if (value.messages.length === 0) return '墙上没有公开留言,也没有给你的留言。';
        return ['墙上的留言(新的在前;[给你] = 指名给本会话或本工作区):', ...value.messages.map(wallLine)].join('\n');
      },
    },
    timeoutMs: 15_000,
    execute: (args, exec) =>
      guarded(async () => {
        const { service, caller } = await callerOf(deps, exec, WALL_TOOL);
        const say = optionalText(args?.say, 'say');
        const to = optionalText(args?.to, 'to');
        if (say !== undefined) {
          const message = await service.wallPost({ fromSession: caller.sessionId, fromWorkspace: caller.workspace, to, text: say });
          return { kind: 'posted', message };
        }
        const k = typeof args?.k === 'number' && Number.isInteger(args.k) ? args.k : undefined;
        return { kind: 'read', messages: await service.wallRead({ sessionId: caller.sessionId, workspace: caller.workspace, k }) };
      }),
  };

  const notebook: ToolDefinition<{ which: string; say?: string; mode?: string }, NotebookValue> = {
    name: NOTEBOOK_TOOL,
    description:
      '本会话的私密本,只有本会话读写得到。which:notes = 私密笔记(不注入,别的会话看不到);rules = 本会话自己的规矩(每次组装提示词时注入,优先级最高,' +
      '和通用规则冲突时以它为准);minor = 压缩时自动归纳的次要规则(只读,优先级最低)。不传 say 就是读;传 say 就是写:mode = append(默认,追加)' +
      '或 replace(整本替换,旧版本自动备份,不会丢)。',
    parameters: {
      type: 'object',
      required: ['which'],
      properties: {
        which: { type: 'string', enum: ['notes', 'rules', 'minor'], description: 'notes 私密笔记 / rules 本会话规则 / minor 次要规则(只读)' },
        say: { type: 'string', description: '要写的内容;不传 = 读' },
        mode: { type: 'string', enum: ['append', 'replace'], description: 'append 追加(默认)/ replace 整本替换(旧版本自动备份)' },
      },
    },
    output: {
      schema: { type: 'object', properties: { kind: { type: 'string' }, which: { type: 'string' } } },
      render: (_args, value) => {
        const name = BOOK_NAMES[value.which] ?? value.which;
        if (value.kind === 'read') return value.text.trim() === '' ? EMPTY_BOOK[value.which] ?? '这本是空的。' : `「${name}」:\n${value.text.trimEnd()}`;
        if (!value.changed) return `「${name}」内容没有变化,未写入。`;
        const how = value.mode === 'replace' ? '整本替换' : '追加';
        const backup = value.backup ? `旧版本已备份到 ${value.backup}。` : '';
        const effect = value.which === 'rules' ? '从下一次组装提示词起生效。' : '';
        return `已写入「${name}」(${how}),现共 ${value.chars} 字。${backup}${effect}`;
      },
    },
    timeoutMs: 15_000,
    execute: (args, exec) =>
      guarded(async () => {
        const which = args?.which;
        if (which !== 'notes' && which !== 'rules' && which !== 'minor') throw new ToolError('invalid-arguments', '"which" must be notes, rules or minor');
        const say = optionalText(args?.say, 'say');
        const mode = args?.mode ?? 'append';
        if (mode !== 'append' && mode !== 'replace') throw new ToolError('invalid-arguments', '"mode" must be append or replace');
        const { service, caller } = await callerOf(deps, exec, NOTEBOOK_TOOL);
        if (say === undefined) return { kind: 'read', ...(await service.notebookRead(caller.scope, which)) };
        if (which === 'minor') throw new ToolError('read-only-book', '次要规则由上下文压缩自动归纳,不能手写;要立规矩请写 which: "rules"');
        return { kind: 'written', ...(await service.notebookWrite(caller.scope, which, say, mode)) };
      }),
  };

  return [brief, wall, notebook];
}

/**
 * Registers the three tools on a context that has the tools service (call it inside
 * `ctx.inject(['tools'], scoped => …)`). A name another plugin already owns is skipped and logged.
 */
export function registerCrossSessionTools(
  ctx: HostContext,
  deps: CrossSessionToolDeps & { log?: HostLogger; skip?: ReadonlySet<string>; prepare?: (tool: ToolDefinition) => ToolDefinition },
): void {
  for (const tool of createCrossSessionTools(deps)) {
    if (deps.skip?.has(tool.name)) continue;
    try {
      const hostTool = toHostTool(deps.prepare ? deps.prepare(tool) : tool, deps.log);
      if (typeof ctx.effect === 'function') ctx.effect(() => ctx.tools.register(hostTool));
      else ctx.tools.register(hostTool);
    } catch (error) {
      deps.log?.warn(`tool ${tool.name} not registered: ${errorText(error)}`);
    }
  }
}
