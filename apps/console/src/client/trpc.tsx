'use client';
// tRPC + TanStack Query on the client. Every request carries the install token (mutations need it).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { createContext, useContext, useState, type ReactNode } from 'react';
import type { AppRouter } from '../server/root.ts';
import { apiPath } from './base-path.ts';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

const TokenContext = createContext<string>('');
export const useToken = (): string => useContext(TokenContext);

export function ApiProvider({ token, children }: { token: string; children: ReactNode }) {
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
      links: [httpBatchLink({ url: apiPath('/api/trpc'), headers: () => ({ 'x-engram-token': token }) })],
    }),
  );
  return (
    <TokenContext.Provider value={token}>
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          {children}
        </TRPCProvider>
      </QueryClientProvider>
    </TokenContext.Provider>
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
