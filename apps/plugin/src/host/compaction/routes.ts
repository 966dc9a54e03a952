// POST /engram/compaction/recheck — "look again" for a session: its last question (or the given
// one) against the session's compacted history, with the optional model rewrite and verdict; what
// is found goes into the session's next step. A write in effect, so it is guarded like
// console-start by the engine's request guard (checkMutation: Host, origin, install token) before
// the body is read.
// GET /engram/compaction/recheck?sessionId=… — whether look-again has anything to search there (the
// session was compacted): the client shows ↻ 再查 only then. Same-site reads only.
import { checkHost, checkMutation, checkSameSite, headerBag, type GuardPolicy } from '@engram/engine';
import type { RouteDefinition } from '../core/host-types.ts';
import type { CompactionChannel } from './channel.ts';
import { passes, readJsonBody, RECHECK_PATH, safePolicy, sendJson } from '../routes/routes.ts';

export const COMPACTION_RECHECK_PATH = RECHECK_PATH;
const MAX_BODY = 64 * 1024;

export interface CompactionRouteDeps {
  channel: CompactionChannel;
  /** The guard's policy now (the same one the other routes use). */
  policy(): GuardPolicy;
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
        if (sessionId === '') return sendJson(res, 400, { error: '"sessionId" is required' });
        return sendJson(res, 200, { sessionId, available: await deps.channel.available(sessionId) });
      }
      if (req.method !== 'POST') return sendJson(res, 405, { error: 'GET or POST only' });
      if (!passes(res, checkMutation(headers, policy))) return;
      let body: { sessionId?: unknown; query?: unknown };
      try {
        body = (await readJsonBody(req, MAX_BODY)) as typeof body;
      } catch (error) {
        return sendJson(res, 400, { error: (error as Error).message });
      }
      if (typeof body?.sessionId !== 'string' || body.sessionId === '') return sendJson(res, 400, { error: '"sessionId" is required' });
      const outcome = await deps.channel.recheck(body.sessionId, typeof body.query === 'string' ? body.query : undefined);
      const status = outcome.ok ? 200 : outcome.error === 'unknown-session' ? 404 : outcome.error === 'failed' ? 500 : 409;
      sendJson(res, status, outcome);
    },
  };
  return [recheck];
}
