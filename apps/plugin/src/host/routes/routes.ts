// HTTP routes on the host's own server (rc.8 `webServer`, newer `httpServer`). The host checks no
// Host header and no Origin on plugin routes, so every route runs the engine's one request guard
// (@engram/engine checkHost / checkSameSite / checkMutation):
//   every route                 the Host must be a loopback name or a configured one (DNS rebinding)
//   GET  /engram/status         what the plugin is doing (engine, modes, console)
//   GET  /engram/client-config  what the client needs (console URL, proxy path, token): same site only
//   GET  /engram/logs           the last lines of the plugin's own log file: same site only
//   POST /engram/console-start  start the console if it is not running (token + origin)
//   *    /engram/console/…      the console proxied through the host (same-origin iframe source)
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { checkHost, checkMutation, checkSameSite, forwardedHeaders, headerBag, PROXY_HEADER, type GuardPolicy, type GuardVerdict } from '@engram/engine';
import type { RouteDefinition } from '../core/host-types.ts';
import type { ConsoleLink } from './console-link.ts';

export const ROUTE_BASE = '/engram';
export const STATUS_PATH = `${ROUTE_BASE}/status`;
export const CLIENT_CONFIG_PATH = `${ROUTE_BASE}/client-config`;
export const CONSOLE_START_PATH = `${ROUTE_BASE}/console-start`;
export const CONSOLE_PROXY_PATH = `${ROUTE_BASE}/console`;
export const LOGS_PATH = `${ROUTE_BASE}/logs`;
export const RECHECK_PATH = `${ROUTE_BASE}/compaction/recheck`;
export const TOKEN_HEADER = 'x-engram-token';

export interface RouteDeps {
  status(): Promise<Record<string, unknown>>;
  console: ConsoleLink;
  /** Path prefix the console was built with ('' = strip the proxy prefix). */
  consoleBasePath: string;
  /** The guard's policy now (token, allowed origins and hosts, trusted proxy). */
  policy(): GuardPolicy;
  /** The last lines of the plugin's log file. */
  logTail?(lines: number): { file: string | null; lines: string[] };
  /** Called with the page's origin when a same-site page starts the console (so it may frame it). */
  onStartFrom?(origin: string | null): void;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** The policy, or one that refuses every mutation when the token cannot be read (engine not open). */
export function safePolicy(policy: () => GuardPolicy): GuardPolicy {
  try {
    return policy();
  } catch {
    return { token: '' };
  }
}

/** Runs the guard; on refusal answers and returns false. */
export function passes(res: ServerResponse, verdict: GuardVerdict): boolean {
  if (verdict.ok) return true;
  sendJson(res, verdict.status, { error: verdict.reason });
  return false;
}

export function createRoutes(deps: RouteDeps): RouteDefinition[] {
  const policy = () => safePolicy(deps.policy);
  const status: RouteDefinition = {
    kind: 'exact',
    path: STATUS_PATH,
    handler: async (req, res) => {
      if (!passes(res, checkHost(headerBag(req.headers), policy()))) return;
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'GET only' });
      sendJson(res, 200, await deps.status());
    },
  };

  const clientConfig: RouteDefinition = {
    kind: 'exact',
    path: CLIENT_CONFIG_PATH,
    handler: async (req, res) => {
      const current = policy();
      const headers = headerBag(req.headers);
      // The token is only for pages of this host: a loopback (or configured) Host, same site, no CORS.
      if (!passes(res, checkHost(headers, current)) || !passes(res, checkSameSite(headers, current))) return;
      if (req.method !== 'GET') return sendJson(res, 405, { error: 'GET only' });
      sendJson(res, 200, {
        // A console built for a base path serves under it on its own origin too.
        consoleUrl: `${deps.console.url}${deps.consoleBasePath}`,
        proxyPath: `${CONSOLE_PROXY_PATH}/`,
        startPath: CONSOLE_START_PATH,
        recheckPath: RECHECK_PATH,
        logsPath: LOGS_PATH,
        tokenHeader: TOKEN_HEADER,
        token: current.token,
        reachable: await deps.console.reachable(),
      });
    },
  };

  const logs: RouteDefinition = {
    kind: 'exact',
    path: LOGS_PATH,
    handler: (req, res) => {
      const current = policy();
      const headers = headerBag(req.headers);
      // Log lines quote the person's questions: same rule as the token.
      if (!passes(res, checkHost(headers, current)) || !passes(res, checkSameSite(headers, current))) return;
      if (req.method !== 'GET') return sendJson(res, 405, { error: 'GET only' });
      const wanted = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('lines') ?? '200');
      const count = Number.isInteger(wanted) && wanted > 0 ? Math.min(wanted, 2000) : 200;
      sendJson(res, 200, deps.logTail?.(count) ?? { file: null, lines: [] });
    },
  };

  const start: RouteDefinition = {
    kind: 'exact',
    path: CONSOLE_START_PATH,
    handler: async (req, res) => {
      const headers = headerBag(req.headers);
      const current = policy();
      if (!passes(res, checkHost(headers, current))) return;
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST only' });
      if (!passes(res, checkMutation(headers, current))) return;
      deps.onStartFrom?.(header(req, 'origin'));
      const outcome = await deps.console.start();
      sendJson(res, outcome.ok ? 200 : outcome.state === 'no-command' ? 501 : 500, outcome);
    },
  };

  const proxy: RouteDefinition = {
    kind: 'prefix',
    path: CONSOLE_PROXY_PATH,
    handler: (req, res) => {
      const current = policy();
      if (!passes(res, checkHost(headerBag(req.headers), current))) return;
      return proxyToConsole(req, res, deps.console.url, deps.consoleBasePath, current.token);
    },
  };

  return [status, clientConfig, logs, start, proxy];
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The console URL a proxied request goes to. */
export function proxiedUrl(consoleUrl: string, requestUrl: string, basePath: string): URL {
  const incoming = new URL(requestUrl, 'http://host');
  const rest = incoming.pathname.slice(CONSOLE_PROXY_PATH.length);
  // A console built with a base path serves its root at `/engram/console` (no slash: Next redirects
  // `/engram/console/` there, so adding one would loop); without one, its root is `/`.
  const path = basePath ? `${basePath}${rest}` : rest || '/';
  return new URL(`${path}${incoming.search}`, `${consoleUrl}/`);
}

const FORWARDED = new Set(['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded', PROXY_HEADER]);

function proxyToConsole(req: IncomingMessage, res: ServerResponse, consoleUrl: string, basePath: string, token: string): Promise<void> {
  return new Promise((resolve) => {
    const target = proxiedUrl(consoleUrl, req.url ?? '/', basePath);
    const headers: Record<string, string | string[]> = {};
    // Whatever forwarding headers the browser sent are dropped: only this proxy's own count.
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !FORWARDED.has(name)) headers[name] = value;
    // The console answers loopback Host names only. It is told the host the browser used (already
    // accepted by checkHost above), with the install token that makes it believe this proxy.
    const browserHost = header(req, 'host');
    if (browserHost && token) Object.assign(headers, forwardedHeaders(token, browserHost, 'http'));
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
