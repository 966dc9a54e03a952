// Pure timing rules for talking to a rate-limited embeddings endpoint.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "1s", "500ms", "6m0s", "1.5s", "2h3m" → ms; a bare number is seconds. null when unparseable. */
export function parseDuration(value: string): number | null {
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v) return null;
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * (UNIT_MS[p[2] as string] as number), 0));
}

/**
 * How long the server asked us to wait, in ms, from `Retry-After` (seconds or an HTTP date) or the
 * `x-ratelimit-reset*` family (seconds, a duration like "1s"/"500ms", or an epoch timestamp).
 * The largest stated wait wins; null when no header says anything usable.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, nowMs: number): number | null {
  const waits: number[] = [];
  const retryAfter = headers.get('retry-after');
  if (retryAfter) {
    const t = retryAfter.trim();
    if (/^\d+(\.\d+)?$/.test(t)) waits.push(Math.round(Number(t) * 1000));
    else {
      const at = Date.parse(t);
      if (!Number.isNaN(at)) waits.push(Math.max(0, at - nowMs));
    }
  }
  for (const name of ['x-ratelimit-reset', 'x-ratelimit-reset-requests', 'x-ratelimit-reset-tokens']) {
    const raw = headers.get(name);
    if (!raw) continue;
    const t = raw.trim();
    if (/^\d{10,}(\.\d+)?$/.test(t)) {
      // An absolute epoch time: seconds (10 digits) or milliseconds (13).
      const n = Number(t);
      const atMs = n > 1e12 ? n : n * 1000;
      waits.push(Math.max(0, Math.round(atMs - nowMs)));
    } else {
      const d = parseDuration(t);
      if (d !== null) waits.push(d);
    }
  }
  return waits.length > 0 ? Math.max(...waits) : null;
}

/** Exponential backoff with jitter: attempt 0 → ~base, doubling up to `capMs`, each ±50 %. */
export function backoffMs(attempt: number, opts: { baseMs?: number; capMs?: number; random?: () => number } = {}): number {
  const base = opts.baseMs ?? 500;
  const cap = opts.capMs ?? 30_000;
  const random = opts.random ?? Math.random;
  const exp = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(exp * (0.5 + random()));
}
