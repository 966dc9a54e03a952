// HTTP routes on the host's own server (rc.8 `webServer`, newer `httpServer`). The host adds no
// auth and no Origin check, so the one mutating route checks both itself.
//   GET  /engram/status         what the plugin is doing (engine, modes, console)
//   GET  /engram/client-config  what the client pane needs (console URL, proxy path, token)
//   POST /engram/console-start  start the console if it is not running (token + same origin)
//   *    /engram/console/…      the console proxied through the host (same-origin iframe source)
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { RouteDefinition } from './host-types.ts';
import type { ConsoleLink } from './console-link.ts';

export const ROUTE_BASE = '/engram';
export const STATUS_PATH = `${ROUTE_BASE}/status`;
export const CLIENT_CONFIG_PATH = `${ROUTE_BASE}/client-config`;
export const CONSOLE_START_PATH = `${ROUTE_BASE}/console-start`;
export const CONSOLE_PROXY_PATH = `${ROUTE_BASE}/console`;
export const TOKEN_HEADER = 'x-engram-token';

export interface RouteDeps {
  status(): Promise<Record<string, unknown>>;
  console: ConsoleLink;
  /** Path prefix the console serves under ('' = strip the proxy prefix). */
  consoleBasePath: string;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** The origin the browser used to reach the host. */
export function selfOrigin(req: IncomingMessage): string | null {
  const host = header(req, 'x-forwarded-host') ?? header(req, 'host');
  if (!host) return null;
  const proto = (header(req, 'x-forwarded-proto') ?? 'http').split(',')[0]!.trim();
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/** A browser request from another origin (or a cross-site one without Origin) is refused. */
export function sameOriginOrScript(req: IncomingMessage): boolean {
  const origin = header(req, 'origin');
  if (origin) {
    try {
      return new URL(origin).origin === selfOrigin(req);
    } catch {
      return false;
    }
  }
  return header(req, 'sec-fetch-site') !== 'cross-site';
}

function tokensEqual(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createRoutes(deps: RouteDeps): RouteDefinition[] {
  const status: RouteDefinition = {
    kind: 'exact',
    path: STATUS_PATH,
    handler: async (req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'GET only' });
      sendJson(res, 200, await deps.status());
    },
  };

  const clientConfig: RouteDefinition = {
    kind: 'exact',
    path: CLIENT_CONFIG_PATH,
    handler: async (req, res) => {
      if (req.method !== 'GET') return sendJson(res, 405, { error: 'GET only' });
      // The token is only for pages of this host; no CORS headers, and foreign origins are refused.
      if (!sameOriginOrScript(req)) return sendJson(res, 403, { error: 'cross-origin request refused' });
      let token = '';
      try {
        token = deps.console.token();
      } catch {
        token = '';
      }
      sendJson(res, 200, {
        consoleUrl: deps.console.url,
        proxyPath: `${CONSOLE_PROXY_PATH}/`,
        startPath: CONSOLE_START_PATH,
        tokenHeader: TOKEN_HEADER,
        token,
        reachable: await deps.console.reachable(),
      });
    },
  };

  const start: RouteDefinition = {
    kind: 'exact',
    path: CONSOLE_START_PATH,
    handler: async (req, res) => {
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST only' });
      if (!sameOriginOrScript(req)) return sendJson(res, 403, { error: 'cross-origin request refused' });
      let expected = '';
      try {
        expected = deps.console.token();
      } catch {
        expected = '';
      }
      if (!tokensEqual(header(req, TOKEN_HEADER), expected)) return sendJson(res, 403, { error: `missing or wrong ${TOKEN_HEADER} header` });
      const outcome = await deps.console.start();
      sendJson(res, outcome.ok ? 200 : outcome.state === 'no-command' ? 501 : 500, outcome);
    },
  };

  const proxy: RouteDefinition = {
    kind: 'prefix',
    path: CONSOLE_PROXY_PATH,
    handler: (req, res) => proxyToConsole(req, res, deps.console.url, deps.consoleBasePath),
  };

  return [status, clientConfig, start, proxy];
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The console URL a proxied request goes to. */
export function proxiedUrl(consoleUrl: string, requestUrl: string, basePath: string): URL {
  const incoming = new URL(requestUrl, 'http://host');
  const rest = incoming.pathname.slice(CONSOLE_PROXY_PATH.length) || '/';
  const path = basePath ? `${basePath}${rest}` : rest;
  return new URL(`${path}${incoming.search}`, `${consoleUrl}/`);
}

function proxyToConsole(req: IncomingMessage, res: ServerResponse, consoleUrl: string, basePath: string): Promise<void> {
  return new Promise((resolve) => {
    const target = proxiedUrl(consoleUrl, req.url ?? '/', basePath);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    // The console only answers loopback Host names; the browser's host travels as x-forwarded-host,
    // so the console's own origin check sees the page's real origin.
    const browserHost = header(req, 'host');
    if (browserHost && !headers['x-forwarded-host']) headers['x-forwarded-host'] = browserHost;
    headers.host = target.host;
    const upstream = request(target, { method: req.method, headers }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('end', () => resolve());
      answer.on('error', () => resolve());
    });
    upstream.on('error', (error) => {
      if (!res.headersSent) sendJson(res, 502, { error: `console not reachable at ${consoleUrl}: ${error.message}`, startPath: CONSOLE_START_PATH });
      else res.end();
      resolve();
    });
    req.pipe(upstream);
  });
}
