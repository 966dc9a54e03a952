// Every example docs/api.md prints runs as printed: its `sh` blocks (curl calls, the example
// scripts), its `ts` block and the three scripts in docs/examples, against the console's own API
// route handlers (apps/console/src/app/api/…/route.ts) served by a plain node:http server — the
// handlers `npm start` serves, without building the console's pages. The one change made to what is
// printed: the console's address `http://127.0.0.1:3000` becomes this server's (ENGRAM_CONSOLE_URL
// for the scripts). HOME is a temp folder, so `~/.engram/console-token` is this console's token.
// A block preceded by `<!-- docs-examples: skip (why) -->` is not run (placeholder ids).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const execFileP = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const PRINTED_URL = 'http://127.0.0.1:3000';
const home = mkdtempSync(join(tmpdir(), 'engram-docs-examples-'));

// The console opens its engine from the environment at the first request: the defaults under HOME.
process.env.HOME = home;
for (const k of ['ENGRAM_DATA_DIR', 'ENGRAM_DIARY_DIR', 'ENGRAM_CONFIG', 'ENGRAM_DATABASE_URL', 'ENGRAM_CONSOLE_URL']) delete process.env[k];
process.env.ENGRAM_EMBEDDING_PROVIDER = 'none';

export interface CodeBlock {
  lang: string;
  code: string;
  /** The `<!-- docs-examples: skip (…) -->` reason right above the block, if any. */
  skip: string | null;
  line: number;
}

/** The fenced code blocks of a markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    let prev = i - 1;
    while (prev >= 0 && lines[prev]!.trim() === '') prev--;
    const skip = prev >= 0 ? (/<!-- docs-examples: skip \((.+)\) -->/.exec(lines[prev]!)?.[1] ?? null) : null;
    blocks.push({ lang: open[1]!, code: lines.slice(i + 1, end).join('\n'), skip, line: i + 1 });
    i = end;
  }
  return blocks;
}

/** A shell block as commands: continuation lines joined, blank lines and comment-only lines left out. */
export function shellCommands(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

async function toRequest(req: IncomingMessage, base: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? '/', base), { method: req.method, headers, body });
}

async function send(res: ServerResponse, answer: Response): Promise<void> {
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
  res.end();
}

type Handler = (req: Request) => Promise<Response>;

describe('docs/api.md examples, as printed', { timeout: 300_000 }, () => {
  let server: Server;
  let url = '';
  const api = readFileSync(join(repoRoot, 'docs/api.md'), 'utf8');
  const blocks = codeBlocks(api);
  const env = () => ({ PATH: process.env.PATH ?? '', HOME: home, ENGRAM_CONSOLE_URL: url, ENGRAM_EMBEDDING_PROVIDER: 'none' });
  const bash = (command: string) => execFileP('bash', ['-c', command.replaceAll(PRINTED_URL, url)], { cwd: repoRoot, env: env(), timeout: 120_000 });

  before(async () => {
    const trpc = (await import('../apps/console/src/app/api/trpc/[trpc]/route.ts')) as { GET: Handler; POST: Handler };
    const rebuild = (await import('../apps/console/src/app/api/index/rebuild/route.ts')) as { POST: Handler };
    server = createServer((req, res) => {
      void (async () => {
        const request = await toRequest(req, url);
        const path = new URL(request.url).pathname;
        const handler = path.startsWith('/api/trpc/') ? (request.method === 'GET' ? trpc.GET : trpc.POST) : path === '/api/index/rebuild' ? rebuild.POST : null;
        await send(res, handler ? await handler(request) : new Response('not found', { status: 404 }));
      })().catch((e: unknown) => {
        res.writeHead(500);
        res.end(String(e));
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    mkdirSync(join(home, 'code/project'), { recursive: true }); // the folder import-sessions.mjs is shown with
  });
  after(() => new Promise<void>((ok) => server.close(() => ok())));

  test('the markdown has the blocks this test runs', () => {
    assert.ok(blocks.filter((b) => b.lang === 'sh' && !b.skip).length >= 3, 'sh blocks');
    assert.equal(blocks.filter((b) => b.lang === 'ts').length, 1, 'one ts block');
  });

  test('every command of every sh block that talks to the console succeeds', async () => {
    let ran = 0;
    for (const block of blocks.filter((b) => b.lang === 'sh' && !b.skip)) {
      for (const command of shellCommands(block.code)) {
        // `npm start` is this test's server; packing the client is packages/client/test's job.
        if (!command.includes(PRINTED_URL) && !command.includes('docs/examples')) continue;
        const { stdout } = await bash(command);
        const where = `api.md:${block.line}: ${command}`;
        assert.notEqual(stdout.trim(), '', `${where}: printed nothing`);
        assert.doesNotMatch(stdout, /"error"\s*:/, `${where}: answered an error:\n${stdout}`);
        ran++;
      }
    }
    assert.ok(ran >= 7, `ran ${ran} commands`);
  });

  test('what the sh blocks wrote is there: the created memory is recalled', async () => {
    const { stdout } = await bash(`curl -s "${PRINTED_URL}/api/trpc/recall.run?input=$(node -p 'encodeURIComponent(JSON.stringify({query:"东京节点 sing-box 端口"}))')"`);
    const hits = (JSON.parse(stdout) as { result: { data: { result: { hits: { title: string }[] } } } }).result.data.result.hits;
    assert.ok(hits.some((h) => h.title === '东京节点换端口'), stdout);
  });

  test('the ts block runs with tsx and the repo\'s mapping of @engram/client', async () => {
    const block = blocks.find((b) => b.lang === 'ts')!;
    const file = join(home, 'api-snippet.mts'); // an ES module, as the snippet's top-level await needs
    writeFileSync(file, `${block.code}\nconsole.log(JSON.stringify({ memories: memories.length, hits: result.hits.length }));\n`);
    const tsx = join(repoRoot, 'node_modules/.bin/tsx');
    const { stdout } = await execFileP(tsx, ['--tsconfig', join(repoRoot, 'docs/examples/tsconfig.json'), file], { cwd: repoRoot, env: env(), timeout: 120_000 });
    const out = JSON.parse(stdout.trim().split('\n').pop()!) as { memories: number; hits: number };
    assert.ok(out.memories >= 1, stdout);
  });
});
