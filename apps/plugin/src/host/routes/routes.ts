// HTTP routes on the host's own server (rc.8 `webServer`, newer `httpServer`). The host checks no
// Host header and no Origin on plugin routes, so every route runs the engine's one request guard
// (@engram/engine checkHost / checkSameSite / checkMutation):
//   every route                 the Host must be a loopback name or a configured one (DNS rebinding)
//   GET  /engram/status         what the plugin is doing (engine, modes, console)
//   GET  /engram/client-config  what the client needs (console URL, proxy path, token): same site only
//   GET  /engram/logs           the last lines of the plugin's own log file: same site only
//   POST /engram/console-start  start the console if it is not running (token + origin)
//   *    /engram/console/…      the console proxied through the host (same-origin iframe source):
//                               only ever to the configured console's origin (proxy-target.ts)
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkHost, checkMutation, checkSameSite, forwardedHeaders, headerBag, PROXY_HEADER, type GuardPolicy, type GuardVerdict, type HeaderBag } from '@engram/engine';
import { VIEW_PATH, viewRedirect } from './light-view.ts';
import { consoleTarget } from './proxy-target.ts';
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

/** A request's JSON body ({} when empty); rejects a body over `maxBytes` (the request is dropped) or one that is not JSON. */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('body is not JSON'));
      }
    });
    req.on('error', reject);
  });
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
        startable: deps.console.startable,
        // Where the sidebar goes while the full console is not running (light-view.ts).
        viewPath: VIEW_PATH,
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
      return proxyToConsole(req, res, deps.console.url, deps.consoleBasePath, current);
    },
  };

  return [status, clientConfig, logs, start, proxy];
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
// Never sent upstream: forwarding headers the browser made up (only this proxy's own count), and the
// browser's credentials for the host's origin (its cookies and authorization are the host's, not the
// console's).
const NOT_FORWARDED = new Set(['x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-for', 'forwarded', PROXY_HEADER, 'cookie', 'authorization']);
// Never passed back: the console must not set cookies on the host's origin.
const NOT_RETURNED = new Set(['set-cookie']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether the proxy vouches for a state-changing request with the install token: only a browser
 * request (it carries an Origin) from this host's own page or an allowed origin. The console's page
 * no longer carries the token, so this is how its writes through the host are authorised.
 */
export function vouchesFor(method: string | undefined, headers: HeaderBag, policy: GuardPolicy): boolean {
  if (SAFE_METHODS.has((method ?? 'GET').toUpperCase())) return false;
  if (!headers.get('origin')) return false;
  return checkSameSite(headers, policy).ok;
}

function proxyToConsole(req: IncomingMessage, res: ServerResponse, consoleUrl: string, basePath: string, policy: GuardPolicy): Promise<void> {
  return new Promise((resolve) => {
    const target = consoleTarget(consoleUrl, req.url ?? '', CONSOLE_PROXY_PATH, basePath);
    if (!target.ok) {
      req.resume();
      sendJson(res, 400, { error: `请求路径不能经代理转发 / refused by the console proxy: ${target.reason}` });
      return resolve();
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !NOT_FORWARDED.has(name)) headers[name] = value;
    // The console answers loopback Host names only. It is told the host the browser used (already
    // accepted by checkHost above), with the install token that makes it believe this proxy.
    const browserHost = header(req, 'host');
    const bag = headerBag(req.headers);
    if (browserHost && policy.token) Object.assign(headers, forwardedHeaders(policy.token, browserHost, 'http'));
    if (policy.token && vouchesFor(req.method, bag, policy)) headers[TOKEN_HEADER] = policy.token;
    headers.host = target.origin.host;
    const { protocol, hostname, port } = target.origin;
    // Options, not a URL: the upstream's scheme, host and port come from the configuration only.
    const send = protocol === 'https:' ? httpsRequest : request;
    const upstream = send({ protocol, hostname: hostname.replace(/^\[|\]$/g, ''), port: port || undefined, path: target.path, method: req.method, headers }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name) && !NOT_RETURNED.has(name)) out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('end', () => resolve());
      answer.on('error', () => resolve());
    });
    upstream.on('error', (error) => {
      // A page navigation while the console is down lands on the plugin's light view instead of an error.
      if (!res.headersSent && req.method === 'GET' && /text\/html/.test(header(req, 'accept') ?? '')) {
        res.writeHead(302, { location: viewRedirect(req.url), 'cache-control': 'no-store' }).end();
      } else if (!res.headersSent) sendJson(res, 502, { error: `完整控制台没有在运行 / console not reachable at ${consoleUrl}: ${error.message}`, startPath: CONSOLE_START_PATH, viewPath: VIEW_PATH });
      else res.end();
      resolve();
    });
    req.pipe(upstream);
  });
}
