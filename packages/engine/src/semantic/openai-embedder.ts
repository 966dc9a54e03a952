// OpenAI-compatible POST {baseUrl}/embeddings. One call = one attempt; pacing and retries are the
// batch runner's job. Every failure becomes a classified EmbeddingFault with the key redacted.
import { normaliseEndpoint } from './fingerprint.ts';
import type { Embedder } from './embedder.ts';
import { validateVectors } from './embedder.ts';
import { EmbeddingFault, redact } from './embedding-fault.ts';
import { retryAfterMs } from './http-retry.ts';
import { fetchForEnv } from '../net/proxy-fetch.ts';

export interface OpenAiEmbedderOptions {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** > 0: sent as `dimensions` and enforced; 0: whatever the model returns (checked for consistency). */
  dimensions: number;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

/** Parses `{ data: [{ embedding, index }] }` into vectors ordered by index. Pure; throws EmbeddingFault. */
export function parseEmbeddingResponse(body: unknown, count: number): number[][] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw new EmbeddingFault('bad-response', 'response has no data array');
  if (data.length !== count) throw new EmbeddingFault('bad-response', `response has ${data.length} embeddings for ${count} inputs`);
  const out: (number[] | undefined)[] = new Array(count);
  data.forEach((item, pos) => {
    const rawIndex = (item as { index?: unknown })?.index;
    const index = rawIndex === undefined ? pos : rawIndex;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || out[index]) {
      throw new EmbeddingFault('bad-response', `response has an invalid or repeated index: ${JSON.stringify(rawIndex)}`);
    }
    const embedding = (item as { embedding?: unknown })?.embedding;
    if (!Array.isArray(embedding) || embedding.some((x) => typeof x !== 'number')) {
      throw new EmbeddingFault('bad-response', `embedding ${index} is not an array of numbers`);
    }
    out[index] = embedding as number[];
  });
  return out as number[][];
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529]);

export class OpenAiEmbedder implements Embedder {
  readonly provider = 'openai' as const;
  readonly remote = true;
  readonly model: string;
  readonly endpoint: string;
  private readonly url: string;
  private readonly apiKey: string;
  private readonly requested: number;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private learned: number | null = null;

  constructor(opts: OpenAiEmbedderOptions) {
    this.model = opts.model.trim();
    this.endpoint = normaliseEndpoint(opts.baseUrl);
    // Keep credentials in the URL out of the endpoint (fingerprint, messages) but use them.
    this.url = `${opts.baseUrl.trim().replace(/\/+$/, '')}/embeddings`;
    this.apiKey = opts.apiKey;
    this.requested = opts.dimensions > 0 ? opts.dimensions : 0;
    this.timeoutMs = opts.timeoutMs;
    this.fetchImpl = opts.fetchImpl ?? fetchForEnv();
  }

  get dimensions(): number | null {
    return this.requested || this.learned;
  }

  /** Pins the expected dimension (e.g. from stored vectors) when the config leaves it open. */
  expectDimensions(dims: number): void {
    if (!this.requested && dims > 0) this.learned = dims;
  }

  private secrets(): string[] {
    const out = [this.apiKey];
    try {
      const u = new URL(this.url);
      if (u.password) out.push(decodeURIComponent(u.password), u.password);
    } catch {
      // not a URL: fetch will say so
    }
    return out;
  }

  private fault(kind: ConstructorParameters<typeof EmbeddingFault>[0], message: string, extra?: { retryAfterMs?: number | null; status?: number }) {
    return new EmbeddingFault(kind, redact(`embeddings ${this.endpoint}: ${message}`, this.secrets()), extra);
  }

  async embed(texts: string[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Float32Array[]> {
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const body: Record<string, unknown> = { model: this.model, input: texts };
    if (this.requested) body.dimensions = this.requested;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(this.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      text = await response.text();
    } catch (e) {
      if (opts.signal?.aborted) throw this.fault('aborted', 'cancelled');
      if (timeout.aborted) throw this.fault('timeout', `no complete response within ${timeoutMs} ms`);
      const cause = (e as { cause?: { code?: string; message?: string } })?.cause;
      throw this.fault('network', `request failed: ${cause?.code ?? cause?.message ?? (e as Error)?.message ?? String(e)}`);
    }
    if (!response.ok) {
      const snippet = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      const what = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${snippet ? `: ${snippet}` : ''}`;
      if (response.status === 429) {
        throw this.fault('rate-limit', what, { retryAfterMs: retryAfterMs(response.headers, Date.now()), status: 429 });
      }
      const kind = RETRYABLE_STATUS.has(response.status) || response.status >= 500 ? 'server' : 'client';
      throw this.fault(kind, what, { retryAfterMs: kind === 'server' ? retryAfterMs(response.headers, Date.now()) : null, status: response.status });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.fault('bad-response', `response is not JSON (${text.slice(0, 80).replace(/\s+/g, ' ')}…)`);
    }
    let vectors: Float32Array[];
    try {
      vectors = validateVectors(parseEmbeddingResponse(json, texts.length), texts.length, this.dimensions, 'endpoint');
    } catch (e) {
      const f = e as EmbeddingFault;
      throw this.fault(f.kind, f.message);
    }
    if (!this.learned && !this.requested) this.learned = vectors[0]?.length ?? null;
    return vectors;
  }
}
