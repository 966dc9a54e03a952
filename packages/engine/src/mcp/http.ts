// `engram mcp --http`: the MCP server over Streamable HTTP on loopback. Every request passes the
// engine's one request guard first (security/request-guard.ts): the Host rule (421: DNS rebinding),
// then the mutation rule (403: an allowed Origin and the install token in x-engram-token) — every MCP
// request may read memories or write one, so each one is treated as the console treats a mutation.
// Stateless: each POST gets its own server and transport over the one engine (no session to leak).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Engine } from '../engine.ts';
import { ensureToken } from '../security/install-token.ts';
import { checkMutation, headerBag, normalizeOrigins, type GuardPolicy } from '../security/request-guard.ts';
import { clientFailure, failureLine } from '../errors.ts';
import { logInternalFailure } from './failure.ts';
import { createEngramMcpServer } from './server.ts';

export interface McpHttpOptions {
  host: string;
  port: number;
  workspace: string | null;
  track?: (call: Promise<unknown>) => void;
}

/** The console's policy for this data dir: its token, allowed origins and hosts, and the bind host. */
export function mcpGuardPolicy(engine: Engine, bindHost: string): GuardPolicy {
  const c = engine.config.console;
  // Only the token header: no page of ours talks to this server, and the console's cookie reaches every port.
  return { token: ensureToken(engine.config.dataDir), allowedOrigins: normalizeOrigins(c.allowedOrigins), allowedHosts: [...c.allowedHosts], trustedProxy: false, bindHost, sessionCookie: false };
}

/** The one path the server answers on (as `engram mcp --http` prints it). */
export const MCP_PATH = '/mcp';

/** A refusal; the connection closes after it, so a refused request's body is not read on. */
const refuse = (res: ServerResponse, status: number, message: string) => {
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', connection: 'close' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
};

const pathOf = (url: string | undefined): string => {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return '';
  }
};

// Loopback, one person's clients: a few dozen connections at most. Headers must arrive in 10 s and a
// whole request in 60 s, so connections that trickle or idle cannot pile up.
const LIMITS = { maxConnections: 256, headersTimeout: 10_000, requestTimeout: 60_000 } as const;

export async function serveMcpHttp(engine: Engine, options: McpHttpOptions): Promise<Server> {
  const policy = mcpGuardPolicy(engine, options.host);
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const verdict = checkMutation(headerBag(req.headers), policy);
    if (!verdict.ok) return refuse(res, verdict.status, verdict.reason);
    if (pathOf(req.url) !== MCP_PATH) return refuse(res, 404, `not found: the endpoint is ${MCP_PATH} / 接口地址是 ${MCP_PATH}`);
    if (req.method !== 'POST') return refuse(res, 405, 'POST only (stateless server) / 只接受 POST');
    // Inside the try: a throw while the server is built would otherwise be an unhandled rejection
    // and a request left without an answer.
    try {
      const server = createEngramMcpServer(engine, { workspace: options.workspace, ...(options.track ? { track: options.track } : {}) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    } catch (e) {
      // The client gets fixed words (or the engine's own, for an EngramError); the cause goes to the log.
      logInternalFailure(engine, 'request', e, [policy.token]);
      if (!res.headersSent) refuse(res, 500, failureLine(clientFailure(e)));
    }
  });
  http.maxConnections = LIMITS.maxConnections;
  http.headersTimeout = LIMITS.headersTimeout;
  http.requestTimeout = LIMITS.requestTimeout;
  await new Promise<void>((ok, fail) => {
    http.once('error', fail);
    http.listen(options.port, options.host, () => ok());
  });
  return http;
}
