// Where a request to the console proxy goes. Pure.
//
// The proxy runs under the DSH host's own origin, so whatever it fetches is served as the host's web
// UI: an upstream chosen by the request would let any page run script as DSH (and read the install
// token the proxy sends upstream). So the upstream is never resolved from the request: its origin is
// the configured console's, and the request only contributes a path that is checked, not resolved.
// Refused (400): anything but an origin-form target under the proxy prefix; a path that is empty after
// the prefix but not at its end (`/engram/consolex`); `//`, `\`, an encoded slash or backslash, `@`,
// `.`/`..` segments, control characters (raw or encoded) and malformed percent-encoding.

export interface ConsoleOrigin {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: string;
  /** `host[:port]` as the console expects it in its Host header. */
  host: string;
}

export type ProxyTarget = { ok: true; origin: ConsoleOrigin; path: string } | { ok: false; reason: string };

/** The console's origin from its configured URL (trusted configuration, not request input). */
export function consoleOrigin(consoleUrl: string): ConsoleOrigin | null {
  let url: URL;
  try {
    url = new URL(consoleUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return { protocol: url.protocol, hostname: url.hostname, port: url.port, host: url.host };
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why a path (the part after the proxy prefix, before `?`) may not be forwarded, or null when it may. */
export function unsafePathReason(rest: string): string | null {
  if (rest !== '' && !rest.startsWith('/')) return 'path must continue with "/"';
  if (CONTROL.test(rest)) return 'control character in path';
  if (rest.includes('\\')) return 'backslash in path';
  if (rest.includes('@')) return '"@" in path';
  if (/%(2f|5c|40)/i.test(rest)) return 'encoded "/", "\\" or "@" in path';
  if (rest.includes('//')) return 'empty path segment ("//")';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return 'malformed percent-encoding in path';
  }
  if (CONTROL.test(decoded)) return 'encoded control character in path';
  if (decoded.split('/').some((segment) => segment === '.' || segment === '..')) return 'dot segment in path';
  return null;
}

/**
 * The upstream path for a request target under `prefix`. `requestUrl` is the raw request-target
 * (node's `req.url`), `basePath` the path the console was built with ('' = strip the prefix).
 */
export function consoleTarget(consoleUrl: string, requestUrl: string, prefix: string, basePath: string): ProxyTarget {
  const origin = consoleOrigin(consoleUrl);
  if (!origin) return { ok: false, reason: 'console URL is not an http(s) origin' };
  // Origin-form only: `http://elsewhere/engram/console/…` (absolute form) and `*` are refused.
  if (!requestUrl.startsWith(`${prefix}`) || requestUrl.startsWith('//')) return { ok: false, reason: 'request target must be a path under the proxy' };
  const queryAt = requestUrl.indexOf('?');
  const pathPart = queryAt < 0 ? requestUrl : requestUrl.slice(0, queryAt);
  const query = queryAt < 0 ? '' : requestUrl.slice(queryAt);
  if (CONTROL.test(query) || query.includes('#')) return { ok: false, reason: 'control character in query' };
  const rest = pathPart.slice(prefix.length);
  const reason = unsafePathReason(rest);
  if (reason) return { ok: false, reason };
  // A console built with a base path serves its root at `/engram/console` (no slash: Next redirects
  // `/engram/console/` there, so adding one would loop); without one, its root is `/`.
  const path = basePath ? `${basePath}${rest}` : rest || '/';
  return { ok: true, origin, path: `${path}${query}` };
}
