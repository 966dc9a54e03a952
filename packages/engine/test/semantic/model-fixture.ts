// Test fixtures for the model installer: a tar.gz writer (ustar, like npm's), a manifest over
// made-up files, and a static HTTP server on 127.0.0.1.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { ModelManifest } from '../../src/model/manifest.ts';

export function tarGz(entries: { path: string; data: Buffer }[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const h = Buffer.alloc(512);
    let name = e.path;
    let prefix = '';
    if (Buffer.byteLength(name) > 100) {
      const cut = name.lastIndexOf('/', 154);
      prefix = name.slice(0, cut);
      name = name.slice(cut + 1);
    }
    h.write(name, 0, 'utf8');
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${e.data.length.toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write('        ', 148);
    h.write('0', 156);
    h.write('ustar\0', 257);
    h.write('00', 263);
    h.write(prefix, 345, 'utf8');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h, e.data, Buffer.alloc((512 - (e.data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

export const integrityOf = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;

/** Files that look like a model folder, and a manifest pinning them. */
export function fakeModel(folder = 'package/models/Test/tiny/'): { files: Map<string, Buffer>; manifest: ModelManifest; tarball: Buffer } {
  const files = new Map<string, Buffer>([
    ['config.json', Buffer.from('{"hidden_size":16,"max_position_embeddings":64}')],
    ['tokenizer.json', Buffer.from('{"model":{}}')],
    ['onnx/model_quantized.onnx', Buffer.from('not really onnx, but pinned bytes '.repeat(50))],
  ]);
  const tarball = tarGz([
    ...[...files].map(([p, data]) => ({ path: `${folder}${p}`, data })),
    { path: 'package/package.json', data: Buffer.from('{}') },
    { path: 'package/models/Other/thing.txt', data: Buffer.from('not part of the model') },
  ]);
  const manifest: ModelManifest = {
    id: 'Test/tiny',
    name: 'tiny',
    pooling: 'mean',
    maxTokens: 64,
    dimensions: 16,
    dtype: 'q8',
    queryInstruction: '',
    files: [...files].map(([path, data]) => ({ path, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') })),
    npm: { name: '@test/tiny', version: '1.0.0', integrity: integrityOf(tarball), folder },
  };
  return { files, manifest, tarball };
}

export async function serveFiles(routes: Map<string, Buffer>): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const body = routes.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((ok) => server.close(() => ok())) };
}
