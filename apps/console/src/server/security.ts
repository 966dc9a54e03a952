// Who may change things: pure checks on request headers, shared by the tRPC guard, the rebuild stream
// and the proxy. Reads stay open to any local caller; every mutation needs the install token and a
// same-origin (or explicitly allowed) browser origin.
import { timingSafeEqual } from 'node:crypto';

export const TOKEN_HEADER = 'x-engram-token';

type HeaderBag = Pick<Headers, 'get'>;

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

export function normalizeOrigins(values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const o = normalizeOrigin(v);
    if (o) out.add(o);
  }
  return [...out];
}

/** The request's own origin as the browser sees it (Host header, scheme from a proxy if any). */
export function selfOrigin(headers: HeaderBag): string | null {
  const host = headers.get('x-forwarded-host') ?? headers.get('host');
  if (!host) return null;
  const proto = (headers.get('x-forwarded-proto') ?? 'http').split(',')[0]!.trim();
  return normalizeOrigin(`${proto}://${host}`);
}

export function tokensEqual(given: string | null, expected: string): boolean {
  if (!given || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type GuardVerdict = { ok: true } | { ok: false; reason: string };

/**
 * A mutation passes when it carries the install token and, if a browser says where it comes from,
 * that place is this console or an allowed origin. Scripts without an Origin header only need the token.
 */
export function checkMutation(headers: HeaderBag, token: string, allowedOrigins: readonly string[]): GuardVerdict {
  const origin = headers.get('origin');
  if (origin !== null && origin !== '') {
    const normalized = normalizeOrigin(origin);
    const own = selfOrigin(headers);
    const allowed = normalized !== null && (normalized === own || normalizeOrigins(allowedOrigins).includes(normalized));
    if (!allowed) return { ok: false, reason: `origin ${origin} is not allowed to change this console` };
  } else if (headers.get('sec-fetch-site') === 'cross-site') {
    return { ok: false, reason: 'cross-site request without an origin' };
  }
  if (!tokensEqual(headers.get(TOKEN_HEADER), token)) {
    return { ok: false, reason: `missing or wrong ${TOKEN_HEADER} header` };
  }
  return { ok: true };
}

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(host) || host.startsWith('127.');

/**
 * DNS-rebinding guard: a console bound to loopback only answers requests addressed to a loopback name
 * (or to an allowed origin's host). A console bound elsewhere was exposed on purpose and is not checked.
 */
export function hostAllowed(hostHeader: string | null, bindHost: string, allowedOrigins: readonly string[]): boolean {
  if (!isLoopbackHost(bindHost)) return true;
  if (!hostHeader) return false;
  const name = hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0]!;
  if (isLoopbackHost(name.toLowerCase())) return true;
  return normalizeOrigins(allowedOrigins).some((o) => new URL(o).hostname === name.toLowerCase());
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
