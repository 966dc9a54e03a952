// The one request guard for every Engram HTTP surface (the console's pages, tRPC and rebuild stream;
// the plugin's routes on the DSH host). Pure functions over a header bag, no I/O.
//
// API (all take a `HeaderBag` — anything with `get(name): string | null`, e.g. a fetch `Headers`, or
// `headerBag(req.headers)` for a node `IncomingMessage`):
//
//   const policy: GuardPolicy = { token, allowedOrigins, allowedHosts, trustedProxy, bindHost };
//   checkHost(headers, policy)      → GuardVerdict   every request, first (refuse with 421)
//   checkMutation(headers, policy)  → GuardVerdict   every state-changing request (refuse with 403)
//   checkSameSite(headers, policy)  → GuardVerdict   reads that hand out secrets (e.g. the token)
//   selfOrigin(headers, policy)     → string | null  the origin the browser used
//   forwardedHeaders(token, browserHost, proto)      what an Engram proxy (the plugin) sends upstream
//
// Why each rule:
// - Host: a page on `evil.example` whose DNS answer flips to 127.0.0.1 (DNS rebinding) talks to a
//   loopback server as same-origin. Its requests still carry `Host: evil.example`, so only exact
//   loopback names (127.0.0.1, localhost, [::1]; any case, any port), the bind host, configured host
//   names and the hosts of allowed origins are answered. Prefix matches (`127.evil.example`) are not.
// - X-Forwarded-*: any client can send them. They are read only when a trusted proxy is configured
//   (`console.trustedProxy`) or the request proves it comes from Engram's own proxy by carrying the
//   install token in `x-engram-proxy`. Even then the forwarded host must itself pass the host rule.
// - Mutations: the install token (compared in constant time) or the browser session cookie, and a
//   browser Origin equal to the request's own origin or an allowed one. A cross-site request without
//   Origin is refused; scripts (no Origin, no Sec-Fetch-Site: cross-site) need only the token.
// - The token never goes into a page or a script: a browser on the console's own origin holds an
//   HttpOnly SameSite=Strict cookie (set with the page) whose value is derived from the token, so
//   reading a page gives no write key, and a page elsewhere cannot make the browser send it; through
//   the plugin's proxy, the proxy itself adds the token to the host page's own writes.
// - Loopback names are one origin per port: `http://localhost:3000` and `http://127.0.0.1:3000` are the
//   same server, as the Host rule already says, so the Origin rule agrees.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-engram-token';
/** Sent by Engram's own reverse proxy (the plugin): the install token, so its X-Forwarded-* are believed. */
export const PROXY_HEADER = 'x-engram-proxy';
/** The browser's write credential on the console's own origin (HttpOnly, SameSite=Strict). */
export const SESSION_COOKIE = 'engram_session';

export interface HeaderBag {
  get(name: string): string | null;
}

export interface GuardPolicy {
  /** The per-install token; '' refuses every mutation. */
  token: string;
  /** Origins besides the request's own that may frame and mutate; their host names are accepted too. */
  allowedOrigins?: readonly string[];
  /** Extra host names (no port) this server answers to, e.g. a LAN name. */
  allowedHosts?: readonly string[];
  /** Believe X-Forwarded-Host/Proto from every request: a reverse proxy in front sets them and strips the client's. */
  trustedProxy?: boolean;
  /** The address the server listens on; a concrete (non-wildcard) one is accepted as a host name. */
  bindHost?: string;
  /**
   * Whether the console's browser session cookie stands for the token (default true: the console's own
   * pages). false for a server no page of ours talks to (MCP over HTTP): cookies are not kept apart by
   * port, so the console's would reach it too.
   */
  sessionCookie?: boolean;
}

export type GuardVerdict = { ok: true } | { ok: false; status: 403 | 421; reason: string };

/**
 * Why a request was refused, in fixed words: never the Host or Origin it sent. A reflected header
 * lets whoever controls it put text into our answer (and a page read by the person), and the caller
 * knows what it sent anyway. Chinese first, English after, as the engine's other messages.
 */
const REFUSED = {
  host: '请求的主机名（Host）不在允许之列，已拒绝（防 DNS 重绑定；可在 console.allowedHosts 里添加）。 / Refused: the Host is not one this server answers to (DNS-rebinding guard; add it to console.allowedHosts).',
  forwardedHost: '转发的主机名（X-Forwarded-Host）不在允许之列，已拒绝。 / Refused: the forwarded host is not one this server answers to.',
  origin: '请求来源（Origin）不在允许之列，已拒绝（可在 console.allowedOrigins 里添加）。 / Refused: the Origin is not allowed here (add it to console.allowedOrigins).',
  crossSite: '跨站请求没有带 Origin，已拒绝。 / Refused: a cross-site request without an Origin.',
  token: `缺少 ${TOKEN_HEADER} 请求头或其值不对，已拒绝。 / Refused: the ${TOKEN_HEADER} header is missing or wrong.`,
} as const;

/** Adapts node's `IncomingHttpHeaders` (lower-case keys, arrays for repeated headers). */
export function headerBag(headers: Record<string, string | string[] | undefined>): HeaderBag {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  };
}

/** `scheme://host[:port]` of a URL-ish string, or null when it is not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/** The origin with a loopback host name spelled one way, for comparing origins. */
function comparableOrigin(origin: string): string {
  const url = new URL(origin);
  if (LOOPBACK_NAMES.has(url.hostname.toLowerCase())) url.hostname = '127.0.0.1';
  return url.origin;
}

function sameOrigin(a: string, b: string): boolean {
  return a === b || comparableOrigin(a) === comparableOrigin(b);
}

export function normalizeOrigins(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const o = normalizeOrigin(v);
    if (o) out.add(o);
  }
  return [...out];
}

export function tokensEqual(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);
const WILDCARD_BINDS = new Set(['', '0.0.0.0', '::', '[::]']);

/**
 * The host name of a Host header value, lower-cased, without port; IPv6 keeps its brackets.
 * Null when the value is not a plain `name[:port]` (userinfo, path, spaces, an empty name…).
 */
export function hostName(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value);
  if (!m) return null;
  const name = m[1]!.replace(/\.$/, ''); // `localhost.` is the same name
  return name === '' ? null : name;
}

/** Exactly 127.0.0.1, localhost or [::1] (any case, optional port). */
export function isLoopbackHost(hostHeader: string): boolean {
  const name = hostName(hostHeader);
  return name !== null && LOOPBACK_NAMES.has(name);
}

function bareName(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (v === '::1') return '[::1]';
  if (v.includes(':') && !v.startsWith('[') && /^[0-9a-f:]+$/.test(v)) return `[${v}]`;
  return hostName(v);
}

/** Every host name the policy accepts besides the loopback ones. */
export function acceptedHosts(policy: GuardPolicy): Set<string> {
  const out = new Set<string>(LOOPBACK_NAMES);
  for (const h of policy.allowedHosts ?? []) {
    const name = bareName(h);
    if (name) out.add(name);
  }
  for (const o of normalizeOrigins(policy.allowedOrigins ?? [])) {
    const name = hostName(new URL(o).host);
    if (name) out.add(name);
  }
  const bind = (policy.bindHost ?? '').trim().toLowerCase();
  if (!WILDCARD_BINDS.has(bind)) {
    const name = bareName(bind);
    if (name) out.add(name);
  }
  return out;
}

export function hostAccepted(hostHeader: string | null, policy: GuardPolicy): boolean {
  if (!hostHeader) return false;
  const name = hostName(hostHeader);
  return name !== null && acceptedHosts(policy).has(name);
}

/** True when this request's X-Forwarded-* headers may be believed. */
export function forwardedTrusted(headers: HeaderBag, policy: GuardPolicy): boolean {
  if (policy.trustedProxy) return true;
  return tokensEqual(headers.get(PROXY_HEADER), policy.token);
}

function firstValue(v: string | null): string | null {
  if (v === null) return null;
  const first = v.split(',')[0]!.trim();
  return first === '' ? null : first;
}

/** The Host the browser addressed: the forwarded one from a trusted proxy, else the Host header. */
export function effectiveHost(headers: HeaderBag, policy: GuardPolicy): string | null {
  if (forwardedTrusted(headers, policy)) {
    const fwd = firstValue(headers.get('x-forwarded-host'));
    if (fwd) return fwd;
  }
  return headers.get('host');
}

/** The request's own origin as the browser sees it, or null. */
export function selfOrigin(headers: HeaderBag, policy: GuardPolicy): string | null {
  const host = effectiveHost(headers, policy);
  if (!host || hostName(host) === null) return null;
  let proto = 'http';
  if (forwardedTrusted(headers, policy)) {
    const p = firstValue(headers.get('x-forwarded-proto'))?.toLowerCase();
    if (p === 'https' || p === 'http') proto = p;
  }
  return normalizeOrigin(`${proto}://${host}`);
}

/** DNS-rebinding guard: the Host header (and a trusted forwarded host) must be one this server answers to. */
export function checkHost(headers: HeaderBag, policy: GuardPolicy): GuardVerdict {
  const host = headers.get('host');
  if (!hostAccepted(host, policy)) return { ok: false, status: 421, reason: REFUSED.host };
  const effective = effectiveHost(headers, policy);
  if (effective !== host && !hostAccepted(effective, policy)) {
    return { ok: false, status: 421, reason: REFUSED.forwardedHost };
  }
  return { ok: true };
}

/** A browser request from another origin (or cross-site without an Origin) is refused; scripts pass. */
export function checkSameSite(headers: HeaderBag, policy: GuardPolicy): GuardVerdict {
  const origin = headers.get('origin');
  if (origin !== null && origin !== '') {
    const normalized = normalizeOrigin(origin);
    const own = selfOrigin(headers, policy);
    const allowed =
      normalized !== null && ((own !== null && sameOrigin(normalized, own)) || normalizeOrigins(policy.allowedOrigins ?? []).some((o) => sameOrigin(o, normalized)));
    if (!allowed) return { ok: false, status: 403, reason: REFUSED.origin };
  } else if (headers.get('sec-fetch-site') === 'cross-site') {
    return { ok: false, status: 403, reason: REFUSED.crossSite };
  }
  return { ok: true };
}

/**
 * Every state-changing request: an accepted Host, an allowed origin, and the install token. Check it
 * before reading the request body.
 */
export function checkMutation(headers: HeaderBag, policy: GuardPolicy): GuardVerdict {
  const host = checkHost(headers, policy);
  if (!host.ok) return host;
  const site = checkSameSite(headers, policy);
  if (!site.ok) return site;
  const byCookie = policy.sessionCookie !== false && sessionCookieValid(headers, policy.token);
  if (!tokensEqual(headers.get(TOKEN_HEADER), policy.token) && !byCookie) {
    return { ok: false, status: 403, reason: REFUSED.token };
  }
  return { ok: true };
}

/** The session cookie's value for an install token (a keyed hash: the cookie never is the token). */
export function browserSessionValue(token: string): string {
  return createHmac('sha256', token).update('engram browser session v1').digest('base64url');
}

/** The `Set-Cookie` value a page answer carries (no `Secure`: the console is plain http on loopback). */
export function sessionCookie(token: string): string {
  return `${SESSION_COOKIE}=${browserSessionValue(token)}; Path=/; HttpOnly; SameSite=Strict`;
}

/** Every value a Cookie header gives one cookie name, in the order sent. */
export function cookieValues(cookieHeader: string | null, name: string): string[] {
  const out: string[] = [];
  if (!cookieHeader) return out;
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) out.push(part.slice(at + 1).trim());
  }
  return out;
}

/** One cookie's value from a Cookie header (the first sent), or null. */
export function cookieValue(cookieHeader: string | null, name: string): string | null {
  return cookieValues(cookieHeader, name)[0] ?? null;
}

/**
 * Whether any session cookie sent is this install's. Cookies are not kept apart by port, so a page on
 * another loopback port can set one of the same name (with a longer path, sent first): it must not
 * shadow the console's own and lock the person out of their writes.
 */
function sessionCookieValid(headers: HeaderBag, token: string): boolean {
  if (!token) return false;
  const expected = browserSessionValue(token);
  return cookieValues(headers.get('cookie'), SESSION_COOKIE).some((value) => tokensEqual(value, expected));
}

/**
 * Headers an Engram reverse proxy (the plugin, forwarding to the console) sets upstream, replacing
 * whatever X-Forwarded-* / x-engram-proxy the client sent: the browser's host (already checked with
 * `checkHost`) and scheme, and the token that makes the console believe them.
 */
export function forwardedHeaders(token: string, browserHost: string, proto: 'http' | 'https' = 'http'): Record<string, string> {
  return { 'x-forwarded-host': browserHost, 'x-forwarded-proto': proto, [PROXY_HEADER]: token };
}

/** Response headers for every page and API answer. No X-Frame-Options: DSH frames the console. */
export function securityHeaders(allowedOrigins: readonly string[], dev = false): Record<string, string> {
  const ancestors = ["'self'", ...normalizeOrigins(allowedOrigins)].join(' ');
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
