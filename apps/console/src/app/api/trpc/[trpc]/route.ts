import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { getRuntime } from '../../../../server/engine.ts';
import { engineUnavailable } from '../../../../server/errors.ts';
import { limitRequestBody } from '../../../../server/limits.ts';
import { appRouter } from '../../../../server/root.ts';
import { createContext } from '../../../../server/trpc.ts';

export const dynamic = 'force-dynamic';

async function handler(request: Request): Promise<Response> {
  const req = await limitRequestBody(request);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: async ({ resHeaders }) => {
      const runtime = await getRuntime().catch((e: unknown) => {
        throw engineUnavailable(e);
      });
      return createContext(runtime, { headers: req.headers, resHeaders });
    },
  });
}

export { handler as GET, handler as POST };
