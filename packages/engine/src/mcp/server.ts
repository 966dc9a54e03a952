// The Engram MCP server over one engine: the tools of tools.ts, the resident memories and every
// memory file as resources (`engram://resident`, `engram://memory/<docId>`), and a prompt that
// renders the recall block for a message. Transport-independent: command.ts connects it to stdio or
// to Streamable HTTP (http.ts).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { Engine } from '../engine.ts';
import enginePackage from '../../package.json' with { type: 'json' };
import { clientFailure, EngramError, failureLine, type ClientFailure } from '../errors.ts';
import { logInternalFailure } from './failure.ts';
import { mcpTools, type McpToolContext } from './tools.ts';

export const RESIDENT_URI = 'engram://resident';
export const MEMORY_URI_PREFIX = 'engram://memory/';

/** Sent to the host at initialize (hosts that support it put it in the system prompt); counted in the tool budget. */
export const SERVER_INSTRUCTIONS = 'Engram 是跨会话的长期记忆。开始一件事先 recall;值得以后知道的结论用 write 记下:具体标题、一句结论、名字和数字照原样、不写密钥。';

/** A failed tool call as the model reads it: the code first (a program can branch on it), then what to do. */
const toolError = (f: ClientFailure) => ({ content: [{ type: 'text' as const, text: failureLine(f) }], isError: true });

/**
 * A failed resource read or prompt as a JSON-RPC error with the same line as a tool error. A plain
 * Error with a numeric `code`, which the SDK answers with as it is: its McpError would put "MCP error
 * -32603:" into the message, and the client's McpError adds that again.
 */
const rpcError = (f: ClientFailure): Error => Object.assign(new Error(failureLine(f)), { code: ErrorCode.InternalError, data: { code: f.code } });

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** A tool's published input schema: zod's JSON Schema without `$schema` and without ±2^53 bounds. */
export function toolInputSchema(shape: z.ZodRawShape): { type: 'object'; [key: string]: unknown } {
  const { $schema: _drop, ...schema } = z.toJSONSchema(z.object(shape), { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  const clean = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(clean);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k, v]) => !((k === 'maximum' || k === 'minimum') && SAFE_BOUNDS.has(v as number)) && !(k === 'additionalProperties' && v === false))
        .map(([k, v]) => [k, clean(v)]),
    );
  };
  return { ...(clean(schema) as Record<string, unknown>), type: 'object' };
}

export interface EngramMcpOptions {
  workspace?: string | null;
  env?: NodeJS.ProcessEnv;
  /** Told of every tool call in progress, so a server shutting down lets a started write finish first. */
  track?: (call: Promise<unknown>) => void;
}

export function createEngramMcpServer(engine: Engine, options: EngramMcpOptions = {}): McpServer {
  const ctx: McpToolContext = { engine, workspace: options.workspace ?? null, env: options.env ?? process.env };
  const server = new McpServer({ name: 'engram', version: enginePackage.version }, { instructions: SERVER_INSTRUCTIONS });
  // The client hears the engine's words for an EngramError and fixed ones for anything else (whose
  // text may hold SQL with the memory's words, or a path); the log keeps the whole of the latter.
  const failed = (what: string, e: unknown): ClientFailure => {
    logInternalFailure(engine, what, e);
    return clientFailure(e);
  };
  const answered =
    <A extends unknown[], R>(what: string, read: (...args: A) => R | Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args);
      } catch (e) {
        throw rpcError(failed(what, e));
      }
    };

  const tools = mcpTools(ctx);
  for (const tool of tools) {
    server.registerTool(tool.name, { description: tool.description, inputSchema: tool.input }, async (args: Record<string, unknown>) => {
      try {
        const running = tool.run(args);
        options.track?.(running);
        const answer = await running;
        return { content: [{ type: 'text' as const, text: answer.text }], ...(answer.structured ? { structuredContent: answer.structured } : {}) };
      } catch (e) {
        return toolError(failed(`tool ${tool.name}`, e));
      }
    });
  }

  // The list the host pays for on every request: the SDK's own conversion plus a cleanup of what
  // costs tokens and tells the model nothing (the draft URL, JavaScript's safe-integer bounds).
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: toolInputSchema(t.input) })),
  }));

  server.registerResource(
    'resident',
    RESIDENT_URI,
    { description: '常驻记忆(每轮都该知道的事实和偏好)', mimeType: 'text/plain' },
    answered('resource resident', (uri: URL) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: engine.residentMemories().map((m) => `${m.critical ? '[关键] ' : ''}${m.text}`).join('\n') }],
    })),
  );

  server.registerResource(
    'memory',
    new ResourceTemplate(`${MEMORY_URI_PREFIX}{id}`, {
      list: answered('resource list', async () => ({
        resources: (await engine.list({ workspace: ctx.workspace })).map((m) => ({
          uri: `${MEMORY_URI_PREFIX}${encodeURIComponent(m.docId)}`,
          name: m.title,
          description: `${m.date} · ${m.summary.slice(0, 120)}`,
          mimeType: 'text/plain',
        })),
      })),
    }),
    { description: '一篇记忆的全文(日记文件)', mimeType: 'text/plain' },
    answered('resource memory', async (uri: URL, variables: Record<string, string | string[]>) => {
      const id = decodeURIComponent(String(variables.id));
      const detail = await engine.read(id);
      const hidden = detail && ctx.workspace !== null && detail.workspace !== ctx.workspace && detail.workspace !== 'global';
      if (!detail || hidden) throw new EngramError('not-found', `没有这篇记忆 / no memory "${id}"`);
      return { contents: [{ uri: uri.href, mimeType: 'text/plain' as const, text: detail.raw }] };
    }),
  );

  server.registerPrompt(
    'recall',
    { description: '为一条消息取相关记忆的注入块,附在消息前', argsSchema: { message: z.string() } },
    answered('prompt recall', async ({ message }: { message: string }) => {
      const result = await engine.recall(message, { workspace: ctx.workspace });
      const block = result.hits.length > 0 ? engine.renderInjection(result) : '';
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: block ? `${block}\n\n${message}` : message } }] };
    }),
  );

  return server;
}
