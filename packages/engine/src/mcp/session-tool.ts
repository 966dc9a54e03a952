// The MCP server's session_read: the DSH sessions under $DSH_HOME, listed, or one read by turns — by
// its id, or by a memory's docId (the memory's source session, opened where it came from); `q` finds
// the turns about some words; `view` adds the reasoning (thinking) or shows the stored messages (raw).
// The same reader as the plugin's tool (sessions/tool-read.ts). Its schema is paid on every request
// of the host, so the view rides inside q as `view:thinking` / `view:raw` (as search's filters ride
// inside its q) instead of costing a parameter of its own (docs/mcp.md has the cost).
import * as z from 'zod';
import { EngramError } from '../errors.ts';
import { visibleIn } from '../recall/scope.ts';
import { listSessions } from '../sessions/list.ts';
import { formatSessionList, SESSION_VIEWS, type SessionView } from '../sessions/read.ts';
import { memoryLookup, readSessionById } from '../sessions/tool-read.ts';
import type { Engine } from '../engine.ts';
import { WorkspaceRegistry } from '../workspace/registry.ts';

// The shapes of tools.ts's McpToolContext / McpToolSpec, said here so that tools.ts, which lists this
// tool, is not imported back (no import cycle).
interface SessionToolContext {
  engine: Engine;
  workspace: string | null;
}

interface SessionToolSpec {
  name: string;
  description: string;
  input: z.ZodRawShape;
  run(args: Record<string, unknown>): Promise<{ text: string; structured?: Record<string, unknown> }>;
}

const text = () => z.string({ error: '需要字符串 / must be a string' });

const VIEW_WORD = /(?:^|\s)view\s*[:=]\s*(\S*)/i;

/** `view:raw 端口` → the words to search and the view; a view that is not one is refused. */
export function splitView(q: string): { words: string; view: SessionView | undefined } {
  const m = VIEW_WORD.exec(q);
  if (!m) return { words: q.trim(), view: undefined };
  const view = m[1]!.toLowerCase();
  if (!(SESSION_VIEWS as readonly string[]).includes(view))
    throw new EngramError('invalid-arguments', `view 只能是 ${SESSION_VIEWS.join(' / ')} / "view:" must be one of ${SESSION_VIEWS.join(', ')}`);
  return { words: q.replace(VIEW_WORD, ' ').trim(), view: view as SessionView };
}

/** The folders a scoped server's sessions come from ([] when its workspace has none: global, or no folder known); null unscoped. */
async function foldersOf(ctx: SessionToolContext): Promise<string[] | null> {
  if (ctx.workspace === null) return null;
  return new WorkspaceRegistry(ctx.engine).folders(ctx.workspace);
}

export function sessionTool(ctx: SessionToolContext, home: string): SessionToolSpec {
  const injectedTags = () => {
    const name = ctx.engine.config.inject?.blockName?.trim();
    return name ? [name] : [];
  };
  return {
    name: 'session_read',
    description: '过去的 DSH 会话:无 id 列出;id=会话 id(前几位)或记忆 docId(去其出处);from 翻页;q 会话内搜,可带 view:thinking|raw。',
    input: { id: text().optional(), from: z.number({ error: '需要整数 / must be an integer' }).int().min(1).optional(), q: text().optional() },
    async run(args) {
      const maxChars = ctx.engine.config.sessions.readMaxChars;
      const id = typeof args.id === 'string' ? args.id.trim() : '';
      const { words: q, view } = splitView(typeof args.q === 'string' ? args.q : '');
      // A scoped server, like a plugin session of that workspace, sees the sessions recorded in its
      // folders (the current one and those it lived in before); an unscoped one sees every session.
      const within = await foldersOf(ctx);
      if (id === '') {
        if (q !== '') throw new EngramError('invalid-arguments', 'q 在一次会话里搜,需要 id / "q" searches inside one session: give its "id"');
        const items = within ? (within.length > 0 ? await listSessions(home, { cwd: within[0], workspacePaths: within.slice(1), injectedTags: injectedTags() }) : []) : await listSessions(home, { injectedTags: injectedTags() });
        const scope = within ? (within[0] ?? `${ctx.workspace}(没有文件夹)`) : '全部工作区';
        return { text: formatSessionList(items, { maxChars, scope, timeZone: ctx.engine.timeZone }), structured: { total: items.length, sessions: items.map((i) => ({ id: i.id, title: i.title, turns: i.turns, startedAt: i.startedAt, cwd: i.cwd })) } };
      }
      const answer = await readSessionById(
        { id, from: args.from as number | undefined, q, view },
        {
          home,
          maxChars,
          injectedTags: injectedTags(),
          tokenizer: () => ctx.engine.tokenizer,
          timeZone: ctx.engine.timeZone,
          // A scoped server sees its workspace's memories and the global ones, as its other tools do.
          memory: memoryLookup(ctx.engine, (ws) => visibleIn({ workspace: ctx.workspace }, ws)),
          ...(within ? { within } : {}),
        },
      );
      const { text: body, kind: _kind, ...structured } = answer;
      return { text: body, structured };
    },
  };
}
