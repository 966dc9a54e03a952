// The OpenAI-compatible embedding endpoint goes through HTTPS_PROXY / HTTP_PROXY like the judge:
// its default fetch is the environment's (net/proxy-fetch.ts), not Node's bare fetch.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { OpenAiEmbedder } from '../../src/semantic/openai-embedder.ts';

async function listen(server: Server, t: { after(fn: () => unknown): void }): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => (server.closeAllConnections(), server.close(r))));
  return (server.address() as AddressInfo).port;
}

test('the embedding endpoint is reached through the environment’s proxy', async (t) => {
  const tunnels: string[] = [];
  const proxyServer = createServer((_req, res) => res.writeHead(405).end());
  proxyServer.on('connect', (req, socket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(proxyServer, t);
  const endpoint = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: [0.6, 0.8] }] }));
  });
  const port = await listen(endpoint, t);

  const saved = { HTTP_PROXY: process.env.HTTP_PROXY, HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  });
  process.env.HTTP_PROXY = `http://127.0.0.1:${proxyPort}`;
  process.env.HTTPS_PROXY = `http://127.0.0.1:${proxyPort}`;
  delete process.env.NO_PROXY;
  const embedder = new OpenAiEmbedder({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: 'k', dimensions: 0, timeoutMs: 5000 });
  const vectors = await embedder.embed(['你好']);
  assert.equal(vectors.length, 1);
  assert.deepEqual(tunnels, [`127.0.0.1:${port}`], 'the call went through the proxy');
});
