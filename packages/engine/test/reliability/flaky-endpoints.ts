// One local server that plays both remote endpoints Engram talks to — OpenAI-compatible
// /embeddings and /chat/completions (the judge) — and fails at random: 429, 500, 503, hangs,
// connection resets, garbage or cut-off JSON, vectors of the wrong length, and 401s that echo the
// key back (to prove it is redacted). Seeded, so a failing run can be replayed. Loopback only.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fakeEmbedding } from '../semantic/fake-embedder.ts';

export type Fault = 'ok' | 'rate-limit' | 'server-error' | 'unavailable' | 'hang' | 'reset' | 'garbage' | 'truncated' | 'wrong-dims' | 'unauthorized-echo';

export interface FlakyOptions {
  dims: number;
  seed?: number;
  /** Relative weights of each outcome (missing = 0; default: healthy). */
  weights?: Partial<Record<Fault, number>>;
}

export interface FlakyServer {
  url: string;
  counts: Record<string, number>;
  setWeights(w: Partial<Record<Fault, number>>): void;
  close(): Promise<void>;
}

export async function startFlakyEndpoints(opts: FlakyOptions): Promise<FlakyServer> {
  let state = (opts.seed ?? 12345) >>> 0 || 1;
  const rnd = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  let weights: Partial<Record<Fault, number>> = opts.weights ?? { ok: 1 };
  const counts: Record<string, number> = {};
  const pick = (allowed: (f: Fault) => boolean): Fault => {
    const entries = (Object.entries(weights) as [Fault, number][]).filter(([f, w]) => w > 0 && allowed(f));
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let x = rnd() * total;
    for (const [f, w] of entries) if ((x -= w) < 0) return f;
    return 'ok';
  };
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let body: { input?: unknown; messages?: { content?: string }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        return json(res, 400, { error: { message: 'bad json' } });
      }
      const isEmbed = req.url?.endsWith('/embeddings') ?? false;
      const isChat = req.url?.endsWith('/chat/completions') ?? false;
      if (!isEmbed && !isChat) return json(res, 404, { error: { message: 'not found' } });
      const fault = pick((f) => isEmbed || f !== 'wrong-dims');
      const key = `${isEmbed ? 'embed' : 'chat'}:${fault}`;
      counts[key] = (counts[key] ?? 0) + 1;
      switch (fault) {
        case 'rate-limit':
          return json(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '0' });
        case 'server-error':
          return json(res, 500, { error: { message: 'boom' } });
        case 'unavailable':
          return json(res, 503, { error: { message: 'overloaded' } });
        case 'hang':
          hanging.add(res);
          return;
        case 'reset':
          req.socket.destroy();
          return;
        case 'garbage':
          return json(res, 200, '<html>gateway error</html>');
        case 'truncated':
          return json(res, 200, isEmbed ? '{"data":[{"index":0,"embedding":[0.1,0.2' : '{"choices":[{"message":{"content":"');
        case 'unauthorized-echo':
          return json(res, 401, { error: { message: `Incorrect API key provided: ${req.headers.authorization ?? ''}` } });
        default:
          break;
      }
      if (isEmbed) {
        const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? (body.input as string[]) : [];
        const n = fault === 'wrong-dims' ? Math.max(1, opts.dims - 3) : opts.dims;
        return json(res, 200, { object: 'list', data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: Array.from(fakeEmbedding(String(t), n)) })) });
      }
      const yes = true; // a healthy judge agrees: any lost answer is then the faults' doing
      return json(res, 200, {
        choices: [{ index: 0, message: { role: 'assistant', content: yes ? '是' : '否' }, logprobs: { content: [{ token: yes ? '是' : '否', logprob: -0.1, top_logprobs: [{ token: '是', logprob: yes ? -0.1 : -2.5 }, { token: '否', logprob: yes ? -2.5 : -0.1 }] }] } }],
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    counts,
    setWeights(w) {
      weights = w;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of hanging) r.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Every fault at once, about a third of requests failing. */
export const ALL_FAULTS: Partial<Record<Fault, number>> = {
  ok: 66,
  'rate-limit': 6,
  'server-error': 5,
  unavailable: 4,
  hang: 3,
  reset: 4,
  garbage: 3,
  truncated: 3,
  'wrong-dims': 3,
  'unauthorized-echo': 3,
};
