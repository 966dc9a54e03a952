// The first thing every API route handler does, before it reads a byte of the body: the request
// guard's Host check (421), its same-site check for every method (403), for state-changing methods
// its mutation check (403), then the size
// limit by Content-Length (413). The API routes are outside the proxy's matcher on purpose: when the
// proxy matches a request, Next copies its body into memory (up to proxyClientMaxBodySize) before any
// of our code runs, so the checks here are the ones that keep unread bodies unread.
import { checkHost, checkMutation, checkSameSite, securityHeaders } from '@engram/engine';
import { getRuntime, guardPolicy, type ConsoleRuntime } from './engine.ts';
import { engineUnavailable } from './errors.ts';
import { declaredTooLarge, MAX_REQUEST_BYTES, tooLarge } from './limits.ts';

const isDev = () => process.env.NODE_ENV === 'development';

/** The security headers on an API answer (the proxy sets them on pages). */
export function withSecurityHeaders(res: Response, allowedOrigins: readonly string[]): Response {
  const headers = securityHeaders(allowedOrigins, isDev());
  try {
    for (const [k, v] of Object.entries(headers)) res.headers.set(k, v);
    return res;
  } catch {
    // Immutable headers (a fetched Response): copy.
    const copy = new Response(res.body, res);
    for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
    return copy;
  }
}

const refuse = (status: number, code: string, message: string, origins: readonly string[]) =>
  withSecurityHeaders(Response.json({ error: { code, message } }, { status }), origins);

export type Admitted = { runtime: ConsoleRuntime } | { refused: Response } | { unavailable: unknown };

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Admits a request to an API route or answers it. `limit` is the largest body the route takes.
 * Mutating methods need the token and an allowed origin (checked before the body is touched).
 */
export async function admit(req: Request, limit = MAX_REQUEST_BYTES): Promise<Admitted> {
  let runtime: ConsoleRuntime;
  try {
    runtime = await getRuntime();
  } catch (e) {
    // No engine, no token: nothing may change. A read may go on to say why (tRPC's error shape).
    if (!MUTATING.has(req.method)) return { unavailable: e };
    const err = engineUnavailable(e);
    return { refused: refuse(503, err.code, err.message, []) };
  }
  const policy = guardPolicy(runtime);
  const host = checkHost(req.headers, policy);
  if (!host.ok) return { refused: refuse(421, 'MISDIRECTED', host.reason, runtime.allowedOrigins) };
  // Reads too: a page on another site cannot read the answer, but a query may still act (recall.run
  // calls the judge model with the user's key), so its requests — an image, a script, a form, which
  // carry Sec-Fetch-Site cross-site, or a foreign Origin — are refused before anything runs. The
  // console's own page, the DSH page through the plugin's proxy and plain clients pass.
  const site = checkSameSite(req.headers, policy);
  if (!site.ok) return { refused: refuse(site.status, 'FORBIDDEN', site.reason, runtime.allowedOrigins) };
  // …and from a page on another port of this machine, which the browser calls the same site (ports do
  // not count) and sends without an Origin when it is an image or a script. The console's pages call
  // their own origin, the DSH page its own through the plugin's proxy, and a fetch from another origin
  // carries an Origin, judged above.
  if (!req.headers.get('origin') && req.headers.get('sec-fetch-site') === 'same-site') {
    return { refused: refuse(403, 'FORBIDDEN', 'request from another site of this machine without an origin', runtime.allowedOrigins) };
  }
  if (MUTATING.has(req.method)) {
    const verdict = checkMutation(req.headers, policy);
    if (!verdict.ok) return { refused: refuse(verdict.status, 'FORBIDDEN', verdict.reason, runtime.allowedOrigins) };
    if (declaredTooLarge(req, limit)) return { refused: withSecurityHeaders(tooLarge(limit), runtime.allowedOrigins) };
  }
  return { runtime };
}
