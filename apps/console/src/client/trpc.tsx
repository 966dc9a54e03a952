'use client';
// tRPC + TanStack Query on the client. The page holds no write key: on the console's own origin the
// browser sends its HttpOnly session cookie, and through the DSH host the plugin's proxy vouches for
// the page's writes (see the engine's request guard).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState, type ReactNode } from 'react';
import type { AppRouter } from '../server/root.ts';
import { MAX_BATCH } from '../server/limits.ts';
import { apiPath } from './base-path.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function ApiProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: (n, e) => n < 1 && !isClientError(e) },
          mutations: { retry: false },
        },
      }),
  );
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: apiPath('/api/trpc'), maxItems: MAX_BATCH, fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }) })],
    }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

export interface ShownError {
  /** tRPC code (BAD_REQUEST, CONFLICT, …). */
  code: string;
  /** The engine's own error code, when the engine raised it. */
  engramCode: string | null;
  message: string;
}

export function describeError(e: unknown): ShownError {
  if (e instanceof TRPCClientError) {
    const data = (e.data ?? {}) as { code?: string; engramCode?: string | null };
    return { code: data.code ?? 'ERROR', engramCode: data.engramCode ?? null, message: e.message };
  }
  if (e instanceof Error) return { code: 'ERROR', engramCode: null, message: e.message };
  return { code: 'ERROR', engramCode: null, message: String(e) };
}

function isClientError(e: unknown): boolean {
  const code = describeError(e).code;
  return code !== 'INTERNAL_SERVER_ERROR' && code !== 'ERROR';
}
