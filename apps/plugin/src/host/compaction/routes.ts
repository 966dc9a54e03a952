// POST /engram/compaction/recheck — "look again" for a session: its last question (or the given
// one) against the session's compacted history, with the optional model rewrite and verdict; what
// is found goes into the session's next step. A write in effect, so it is guarded like
// console-start by the engine's request guard (checkMutation: Host, origin, install token) before
// the body is read.
// GET /engram/compaction/recheck?sessionId=… — whether look-again has anything to search there (the
// session was compacted): the client shows ↻ 再查 only then. Same-site reads only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkHost, checkMutation, checkSameSite, headerBag, type GuardPolicy } from '@engram/engine';
import type { RouteDefinition } from '../core/host-types.ts';
import type { CompactionChannel } from './channel.ts';
import { passes, RECHECK_PATH, safePolicy } from '../routes/routes.ts';

export const COMPACTION_RECHECK_PATH = RECHECK_PATH;
const MAX_BODY = 64 * 1024;

export interface CompactionRouteDeps {
  channel: CompactionChannel;
  /** The guard's policy now (the same one the other routes use). */
  policy(): GuardPolicy;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new Error('body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

export function createCompactionRoutes(deps: CompactionRouteDeps): RouteDefinition[] {
  const recheck: RouteDefinition = {
    kind: 'exact',
    path: COMPACTION_RECHECK_PATH,
    handler: async (req, res) => {
      const headers = headerBag(req.headers);
      const policy = safePolicy(deps.policy);
      if (!passes(res, checkHost(headers, policy))) return;
      if (req.method === 'GET') {
        if (!passes(res, checkSameSite(headers, policy))) return;
        const sessionId = new URL(req.url ?? '/', 'http://host').searchParams.get('sessionId') ?? '';
        if (sessionId === '') return send(res, 400, { error: '"sessionId" is required' });
        return send(res, 200, { sessionId, available: await deps.channel.available(sessionId) });
      }
      if (req.method !== 'POST') return send(res, 405, { error: 'GET or POST only' });
      if (!passes(res, checkMutation(headers, policy))) return;
      let body: { sessionId?: unknown; query?: unknown };
      try {
        body = (await readJson(req)) as typeof body;
      } catch (error) {
        return send(res, 400, { error: (error as Error).message });
      }
      if (typeof body?.sessionId !== 'string' || body.sessionId === '') return send(res, 400, { error: '"sessionId" is required' });
      const outcome = await deps.channel.recheck(body.sessionId, typeof body.query === 'string' ? body.query : undefined);
      const status = outcome.ok ? 200 : outcome.error === 'unknown-session' ? 404 : outcome.error === 'failed' ? 500 : 409;
      send(res, status, outcome);
    },
  };
  return [recheck];
}
