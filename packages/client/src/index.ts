// A typed client for the Engram console's tRPC API (docs/api.md), for scripts outside the console.
//
//   import { createEngramClient } from '@engram/client';
//   const engram = createEngramClient();                       // http://127.0.0.1:3000, token from the data dir
//   const memories = await engram.memories.list.query({});     // MemorySummary[], fully typed
//   await engram.memories.create.mutate({ content: '…' });     // mutations carry x-engram-token
//
// The wire format is the console's own: plain JSON (no transformer), batched GET/POST under /api/trpc.
// Types come from the console's router (`AppRouter`), so a renamed procedure or field is a compile
// error in the script, not a runtime surprise.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCClient } from '@trpc/client';
import type { AppRouter } from '../../../apps/console/src/server/root.ts';
// The console refuses a batch larger than this; the link splits at it.
import { MAX_BATCH } from '../../../apps/console/src/server/limits.ts';
// Only the token file's name and place, not the engine: this small module is bundled into the client.
import { tokenPath } from '../../engine/src/security/install-token.ts';
import { TOKEN_HEADER } from '../../engine/src/security/request-guard.ts';

export type { AppRouter };
export type EngramClient = TRPCClient<AppRouter>;
export { TRPCClientError };

export const DEFAULT_CONSOLE_URL = 'http://127.0.0.1:3000';

export interface EngramClientOptions {
  /** Where the console runs; default `ENGRAM_CONSOLE_URL`, else http://127.0.0.1:3000. `/api/trpc` is added. */
  url?: string;
  /**
   * The per-install token that every mutation needs. Default: read from `<dataDir>/console-token`
   * (the file the console creates on first start). Queries work without one.
   */
  token?: string;
  /** Where to look for the token file; default `ENGRAM_DATA_DIR`, else `~/.engram` (as the console). */
  dataDir?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

/** The console's data folder by the console's own rule: ENGRAM_DATA_DIR, else ~/.engram. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.ENGRAM_DATA_DIR || join(homedir(), '.engram');
}

/** The install token from `<dataDir>/console-token`, or null when there is none (yet). */
export function readInstallToken(dataDir: string = defaultDataDir()): string | null {
  try {
    const value = readFileSync(tokenPath(dataDir), 'utf8').trim();
    return value || null;
  } catch {
    return null;
  }
}

/** The tRPC endpoint for a console base URL (`http://host:port` → `http://host:port/api/trpc`). */
export function trpcUrl(url: string): string {
  const base = url.replace(/\/+$/, '');
  return base.endsWith('/api/trpc') ? base : `${base}/api/trpc`;
}

export function createEngramClient(options: EngramClientOptions = {}): EngramClient {
  const url = trpcUrl(options.url ?? process.env.ENGRAM_CONSOLE_URL ?? DEFAULT_CONSOLE_URL);
  // Read lazily and once: a script that only queries needs no token file, and a console started
  // after the client was created has written its token by the first call.
  let token = options.token ?? null;
  const headers = (): Record<string, string> => {
    token ??= readInstallToken(options.dataDir ?? defaultDataDir());
    return token ? { [TOKEN_HEADER]: token } : {};
  };
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url, headers, maxItems: MAX_BATCH, fetch: guardRefusalsAsTRPC(options.fetch ?? globalThis.fetch) })],
  });
}

// JSON-RPC numbers tRPC uses for these codes (TRPC_ERROR_CODES_BY_KEY); the rest count as internal.
const RPC_CODES: Record<string, number> = { FORBIDDEN: -32003, PAYLOAD_TOO_LARGE: -32013, PRECONDITION_FAILED: -32012 };

/**
 * The console's request guard refuses some requests before tRPC sees them (a mutation without the
 * token or from a foreign origin: 403; a wrong Host: 421; a declared body too large: 413) and answers
 * those with a plain `{ error: { code, message } }`. `@trpc/client` cannot read that ("Unable to
 * transform response from server"), so it is rewritten into tRPC's batch error shape here: the script
 * then gets a TRPCClientError with `data.code` and `data.httpStatus` like for any other refusal.
 */
export function guardRefusalsAsTRPC(fetchImpl: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const res = await fetchImpl(input, init);
    if (res.ok || !(res.headers.get('content-type') ?? '').includes('json')) return res;
    const body: unknown = await res.clone().json().catch(() => null);
    const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (Array.isArray(body) || !error || typeof error.code !== 'string' || typeof error.message !== 'string') return res;
    // One answer per procedure of the batch: the paths are the URL's last segment, comma-separated.
    const requestUrl = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const paths = decodeURIComponent(requestUrl.pathname.split('/').pop() ?? '').split(',');
    const code = error.code;
    const answers = paths.map((path) => ({
      error: {
        message: error.message,
        code: RPC_CODES[code] ?? -32603,
        data: { code, httpStatus: res.status, path, engramCode: null, issues: null },
      },
    }));
    return new Response(JSON.stringify(answers), { status: res.status, headers: { 'content-type': 'application/json' } });
  };
}
