// One failed embedding attempt, classified so the batch runner knows whether to wait and retry.

export type FaultKind =
  | 'rate-limit' // HTTP 429
  | 'server' // 5xx and other transient statuses
  | 'timeout' // no complete answer within the wall-clock limit
  | 'network' // connection refused / reset / DNS
  | 'bad-response' // not JSON, wrong shape, wrong count
  | 'dimensions' // well-formed vectors of the wrong length
  | 'client' // 4xx other than 429: wrong key, model or request; retrying cannot help
  | 'aborted' // the caller cancelled
  | 'unavailable'; // the embedder could not be set up at all

const RETRYABLE: ReadonlySet<FaultKind> = new Set(['rate-limit', 'server', 'timeout', 'network', 'bad-response']);

export class EmbeddingFault extends Error {
  readonly kind: FaultKind;
  /** Server-requested wait before the next attempt (Retry-After / x-ratelimit-reset), in ms. */
  readonly retryAfterMs: number | null;
  readonly status: number | null;

  constructor(kind: FaultKind, message: string, opts: { retryAfterMs?: number | null; status?: number | null } = {}) {
    super(message);
    this.name = 'EmbeddingFault';
    this.kind = kind;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.status = opts.status ?? null;
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

export const isEmbeddingFault = (e: unknown): e is EmbeddingFault => e instanceof EmbeddingFault;

/** Replaces every occurrence of a secret with *** (error bodies sometimes echo the key back). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  // Bearer tokens of any key, in case a proxy echoes the request headers.
  return out.replace(/(Bearer\s+)[^\s"',]+/gi, '$1***');
}
