import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { engineUnavailable } from '../../../../server/errors.ts';
import { admit, withSecurityHeaders } from '../../../../server/http-guard.ts';
import { limitRequestBody, MAX_BATCH } from '../../../../server/limits.ts';
import { appRouter } from '../../../../server/root.ts';
import { createContext } from '../../../../server/trpc.ts';

export const dynamic = 'force-dynamic';

async function handler(request: Request): Promise<Response> {
  // Host, token and origin are checked before the body is read (every tRPC POST is a mutation).
  const admitted = await admit(request);
  if ('refused' in admitted) return admitted.refused;
  if ('unavailable' in admitted) {
    return withSecurityHeaders(
      await fetchRequestHandler({
        endpoint: '/api/trpc',
        req: request,
        router: appRouter,
        maxBatchSize: MAX_BATCH,
        createContext: () => {
          throw engineUnavailable(admitted.unavailable);
        },
      }),
      [],
    );
  }
  const { runtime } = admitted;
  const req = await limitRequestBody(request);
  if (req instanceof Response) return withSecurityHeaders(req, runtime.allowedOrigins);
  const res = await fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH,
    createContext: ({ resHeaders }) => createContext(runtime, { headers: req.headers, resHeaders }),
  });
  return withSecurityHeaders(res, runtime.allowedOrigins);
}

export { handler as GET, handler as POST };
