// Runs before every page answer: refuses requests addressed to a foreign host name (DNS rebinding
// against a loopback console), sets the security headers, with `frame-ancestors` limited to the
// console itself and the configured host origins, and gives the browser its write credential: an
// HttpOnly SameSite=Strict session cookie derived from the install token (the page itself carries
// no key; Engram's own proxy drops the cookie and vouches for the host page's writes itself). The API routes are not matched: Next copies the
// body of every request the proxy sees into memory first, so they run the same request guard
// themselves before reading their body (server/http-guard.ts). No page takes a body.
import { NextResponse, type NextRequest } from 'next/server';
import { checkHost, normalizeOrigins, securityHeaders, sessionCookie, type GuardPolicy } from '@engram/engine';
import { bindHost, getRuntime, guardPolicy } from './server/engine.ts';

async function policy(): Promise<GuardPolicy> {
  try {
    return guardPolicy(await getRuntime());
  } catch {
    // The engine could not open (bad config): the page will say why; answer loopback names only and
    // frame only from allowed env origins.
    return { token: '', allowedOrigins: normalizeOrigins((process.env.ENGRAM_ALLOWED_ORIGINS ?? '').split(',')), bindHost: bindHost() };
  }
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const guard = await policy();
  const headers = securityHeaders(guard.allowedOrigins ?? [], process.env.NODE_ENV === 'development');
  const host = checkHost(request.headers, guard);
  if (!host.ok) return new NextResponse('Host not allowed', { status: 421, headers });
  if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') {
    return new NextResponse('Method not allowed', { status: 405, headers: { ...headers, Allow: 'GET, HEAD' } });
  }
  const response = NextResponse.next();
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  if (guard.token) response.headers.append('set-cookie', sessionCookie(guard.token));
  return response;
}

export const config = {
  // '/' on its own: under a basePath (the plugin's proxy mode) the second pattern needs a trailing
  // slash, and the root page went unchecked.
  matcher: ['/', '/((?!api/|_next/static|_next/image|favicon.ico).*)'],
};
