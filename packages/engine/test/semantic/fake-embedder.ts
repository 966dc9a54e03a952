// A real OpenAI-compatible embeddings server on 127.0.0.1 for tests, evals and e2e runs, with a
// deterministic embedder and switchable faults. Reusable: import { startFakeEmbedder, fakeEmbedding }.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Deterministic text embedding: hashed character unigrams, bigrams and whole ASCII words, signed,
 * normalised. Texts sharing words (or CJK character pairs) get a higher cosine. `seed` gives a
 * different "model": same text, unrelated vector.
 */
export function fakeEmbedding(text: string, dims: number, seed = ''): Float32Array {
  const v = new Float32Array(dims);
  const add = (gram: string, weight: number) => {
    let h = 0x811c9dc5;
    const key = `${seed}\u0000${gram}`;
    for (let i = 0; i < key.length; i++) {
      h ^= key.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    const slot = h % dims;
    const sign = (Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0) & 1 ? 1 : -1;
    v[slot] = (v[slot] as number) + sign * weight;
  };
  const lower = text.toLowerCase();
  for (const word of lower.match(/[a-z0-9]+/g) ?? []) add(`w:${word}`, 1);
  const chars = [...lower.replace(/\s+/g, ' ')].filter((c) => !/[\s\p{P}]/u.test(c));
  for (let i = 0; i < chars.length; i++) {
    add(`u:${chars[i]}`, 0.5);
    if (i + 1 < chars.length) add(`b:${chars[i]}${chars[i + 1]}`, 1);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dims; i++) v[i] = (v[i] as number) * inv;
  return v;
}

export type FaultMode =
  | 'none'
  | 'rate-limit' // 429 with a Retry-After (or x-ratelimit-reset) header
  | 'server-error' // 500
  | 'hang' // accepts the request, never answers
  | 'wrong-dims' // 200 with vectors of another length
  | 'malformed' // 200 with a body that is not JSON
  | 'reset' // destroys the connection
  | 'unauthorized'; // 401 whose body echoes the key (to prove it gets redacted)

export interface FaultOptions {
  /** Apply to the next N requests, then go back to normal (default: until changed). */
  times?: number;
  /** Header value for rate-limit, e.g. '1' (seconds), an HTTP date, or '500ms' with header x-ratelimit-reset. */
  retryAfter?: string;
  header?: 'retry-after' | 'x-ratelimit-reset';
  /** Length of the vectors in wrong-dims mode (default dims / 2). */
  wrongDims?: number;
}

export interface FakeRequestLog {
  /** ms since the server started. */
  at: number;
  inputs: number;
  outcome: FaultMode | 'ok';
  auth: string | null;
  model: string | null;
  dimensions: number | null;
}

export interface FakeEmbedderOptions {
  dims?: number;
  seed?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get 401. */
  apiKey?: string;
  /** Delay before answering a normal request (ms). */
  latencyMs?: number;
}

export interface FakeEmbedder {
  /** Base URL including /v1. */
  readonly url: string;
  readonly port: number;
  /** Requests received (any outcome). */
  readonly requests: number;
  /** Inputs embedded successfully. */
  readonly inputs: number;
  /** Most requests in flight at once. */
  readonly maxConcurrent: number;
  readonly log: FakeRequestLog[];
  setFault(mode: FaultMode, opts?: FaultOptions): void;
  /** A different seed = a different model behind the same endpoint. */
  setSeed(seed: string): void;
  setDims(dims: number): void;
  setLatency(ms: number): void;
  /** Clears counters and the log. */
  reset(): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });

export async function startFakeEmbedder(options: FakeEmbedderOptions = {}): Promise<FakeEmbedder> {
  let dims = options.dims ?? 64;
  let seed = options.seed ?? '';
  let latencyMs = options.latencyMs ?? 0;
  let fault: { mode: FaultMode; opts: FaultOptions; left: number } = { mode: 'none', opts: {}, left: Infinity };
  let requests = 0;
  let inputs = 0;
  let inFlight = 0;
  let maxConcurrent = 0;
  const log: FakeRequestLog[] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const started = Date.now();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    requests++;
    inFlight++;
    maxConcurrent = Math.max(maxConcurrent, inFlight);
    res.on('close', () => {
      inFlight--;
    });
    const entry: FakeRequestLog = { at: Date.now() - started, inputs: 0, outcome: 'ok', auth: req.headers.authorization ?? null, model: null, dimensions: null };
    log.push(entry);
    if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) return send(res, 404, { error: { message: 'not found' } });
    let body: { model?: string; input?: unknown; dimensions?: number };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return send(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? (body.input as string[]) : null;
    if (!input) return send(res, 400, { error: { message: 'input must be a string or an array of strings' } });
    entry.inputs = input.length;
    entry.model = body.model ?? null;
    entry.dimensions = typeof body.dimensions === 'number' ? body.dimensions : null;

    let mode: FaultMode = 'none';
    if (fault.mode !== 'none' && fault.left > 0) {
      mode = fault.mode;
      fault.left--;
    }
    if (mode === 'none' && options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) mode = 'unauthorized';
    entry.outcome = mode === 'none' ? 'ok' : mode;

    switch (mode) {
      case 'rate-limit': {
        const header = fault.opts.header ?? 'retry-after';
        return send(res, 429, { error: { message: 'rate limit exceeded' } }, { [header]: fault.opts.retryAfter ?? '1' });
      }
      case 'server-error':
        return send(res, 500, { error: { message: 'internal error' } });
      case 'hang':
        hanging.add(res);
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'malformed':
        return send(res, 200, '{"data": [ {"embedding": [0.1, 0.2');
      case 'unauthorized':
        return send(res, 401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? '(none)'}` } });
      case 'wrong-dims': {
        const n = fault.opts.wrongDims ?? Math.max(1, Math.floor(dims / 2));
        return send(res, 200, { object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: Array.from(fakeEmbedding(t, n, seed)) })) });
      }
      default: {
        if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
        const n = typeof body.dimensions === 'number' && body.dimensions > 0 ? body.dimensions : dims;
        inputs += input.length;
        // Reversed on purpose: clients must order by `index`, not by position.
        const data = input.map((t, index) => ({ object: 'embedding', index, embedding: Array.from(fakeEmbedding(t, n, seed)) })).reverse();
        return send(res, 200, { object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } });
      }
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    get inputs() {
      return inputs;
    },
    get maxConcurrent() {
      return maxConcurrent;
    },
    log,
    setFault(mode, opts = {}) {
      fault = { mode, opts, left: opts.times ?? Infinity };
    },
    setSeed(s) {
      seed = s;
    },
    setDims(n) {
      dims = n;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    reset() {
      requests = 0;
      inputs = 0;
      maxConcurrent = 0;
      log.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
