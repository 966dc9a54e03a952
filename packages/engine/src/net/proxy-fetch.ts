// Engram's own calls to model endpoints (the relevance judge, an OpenAI-compatible embedding
// endpoint, the model download) honour the standard proxy variables, as curl and npm do: many users
// reach model endpoints only through a proxy. Node's fetch ignores HTTPS_PROXY / HTTP_PROXY /
// NO_PROXY, so when one is set these calls go through undici's EnvHttpProxyAgent (loaded only then:
// a CLI without a proxy pays nothing for it).

type Env = Record<string, string | undefined>;

export interface ProxySettings {
  httpsProxy: string | null;
  httpProxy: string | null;
  noProxy: string | null;
}

const pick = (env: Env, name: string): string | null => {
  const value = env[name] ?? env[name.toLowerCase()];
  return value && value.trim() !== '' ? value.trim() : null;
};

/** The proxy variables in effect (upper case wins over lower case), or null when none is set. */
export function proxySettings(env: Env = process.env): ProxySettings | null {
  const settings = { httpsProxy: pick(env, 'HTTPS_PROXY'), httpProxy: pick(env, 'HTTP_PROXY'), noProxy: pick(env, 'NO_PROXY') };
  return settings.httpsProxy || settings.httpProxy ? settings : null;
}

/** A proxy URL for logs and status: the scheme, host and port only (never its credentials). */
export function describeProxy(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return '(invalid proxy URL)';
  }
}

/**
 * Runs `make` with one warning code silenced. undici's constructor warns that its proxy agent is
 * "experimental": a note on the API for us (the version is pinned), not something the person whose
 * CLI or console printed it can act on. Every other warning still reaches process.emitWarning.
 */
function withoutWarning<T>(code: string, make: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const options = rest[0];
    if (typeof options === 'object' && options !== null && (options as { code?: unknown }).code === code) return;
    (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return make();
  } finally {
    process.emitWarning = emit;
  }
}

/** `fetch` for calls to model endpoints: through the environment's proxy when one is set. */
export function fetchForEnv(env: Env = process.env): typeof fetch {
  const settings = proxySettings(env);
  if (!settings) return globalThis.fetch;
  let ready: Promise<(input: string | URL | Request, init?: RequestInit) => Promise<Response>> | null = null;
  const load = () =>
    (ready ??= import('undici').then(({ EnvHttpProxyAgent, fetch: undiciFetch }) => {
      const dispatcher = withoutWarning('UNDICI-EHPA', () =>
        new EnvHttpProxyAgent({
          ...(settings.httpProxy ? { httpProxy: settings.httpProxy } : {}),
          ...(settings.httpsProxy ? { httpsProxy: settings.httpsProxy } : {}),
          ...(settings.noProxy ? { noProxy: settings.noProxy } : {}),
        }),
      );
      return (input, init) => undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
    }));
  return (async (input: string | URL | Request, init?: RequestInit) => (await load())(input, init)) as typeof fetch;
}
