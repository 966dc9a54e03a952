// Runs before every page and API answer: refuses requests addressed to a foreign host name
// (DNS rebinding against a loopback console) and sets the security headers, with `frame-ancestors`
// limited to the console itself and the configured host origins.
import { NextResponse, type NextRequest } from 'next/server';
import { getRuntime } from './server/engine.ts';
import { hostAllowed, normalizeOrigins, securityHeaders } from './server/security.ts';

async function allowedOrigins(): Promise<string[]> {
  try {
    return (await getRuntime()).allowedOrigins;
  } catch {
    // The engine could not open (bad config): the page will say why; frame only from allowed env origins.
    return normalizeOrigins((process.env.ENGRAM_ALLOWED_ORIGINS ?? '').split(','));
  }
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const origins = await allowedOrigins();
  const headers = securityHeaders(origins, process.env.NODE_ENV === 'development');
  if (!hostAllowed(request.headers.get('host'), process.env.HOST || '127.0.0.1', origins)) {
    return new NextResponse('Host not allowed', { status: 421, headers });
  }
  const response = NextResponse.next();
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
