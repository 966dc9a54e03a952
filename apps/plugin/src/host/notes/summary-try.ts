// POST /engram/summary/try — the console's 「试一下 AI 摘要」: `{ title, body }` (a memory's text as it
// stands in the editor) summarised through the host's model exactly as the summary queue would
// (engine SummaryQueue.trySummary), and handed back; nothing is written. Only the plugin reaches
// the host's model, so the console page asks it here, through the host. It spends tokens, so it is
// guarded like a write: the install token, or a same-site browser request from the host's own page
// (what the console proxy vouches for).
import { checkHost, checkMutation, headerBag, type AssistRoute, type Complete, type Engine, type GuardPolicy } from '@engram/engine';
import type { RouteDefinition } from '../core/host-types.ts';
import { passes, readJsonBody, ROUTE_BASE, safePolicy, sendJson, vouchesFor } from '../routes/routes.ts';

export const SUMMARY_TRY_PATH = `${ROUTE_BASE}/summary/try`;
const MAX_BODY = 256 * 1024;

export interface SummaryTryDeps {
  engine(): Engine | null;
  complete: Complete;
  /** The latest session's model: the route when the summaries settings name none. */
  route(): AssistRoute | null;
  policy(): GuardPolicy;
}

export function createSummaryTryRoutes(deps: SummaryTryDeps): RouteDefinition[] {
  return [
    {
      kind: 'exact',
      path: SUMMARY_TRY_PATH,
      handler: async (req, res) => {
        const headers = headerBag(req.headers);
        const policy = safePolicy(deps.policy);
        if (!passes(res, checkHost(headers, policy))) return;
        if (req.method !== 'POST') return sendJson(res, 405, { error: 'POST only' });
        const guard = checkMutation(headers, policy);
        if (!guard.ok && !vouchesFor(req.method, headers, policy)) return passes(res, guard);
        const engine = deps.engine();
        if (!engine) return sendJson(res, 503, { error: 'engine not open' });
        let body: { title?: unknown; body?: unknown };
        try {
          body = (await readJsonBody(req, MAX_BODY)) as typeof body;
        } catch (error) {
          return sendJson(res, 400, { error: (error as Error).message });
        }
        const title = typeof body?.title === 'string' ? body.title.trim() : '';
        const text = typeof body?.body === 'string' ? body.body.trim() : '';
        if (title === '' && text === '') return sendJson(res, 400, { error: '"title" or "body" is required' });
        sendJson(res, 200, await engine.summaryQueue().trySummary(deps.complete, { title, body: text }, { route: deps.route() }));
      },
    },
  ];
}
