// Full rebuild with live progress: POST, answered as NDJSON (one RebuildEvent per line) so a plain
// fetch reader can move the bar. Guarded like every mutation.
import { isEngineError } from '../../../../server/errors.ts';
import { admit, withSecurityHeaders } from '../../../../server/http-guard.ts';
import { limitRequestBody } from '../../../../server/limits.ts';
import { progressPercent, type RebuildEvent } from '../../../../shared/progress.ts';

export const dynamic = 'force-dynamic';

const REBUILD_BODY_LIMIT = 64 * 1024;

export async function POST(req: Request): Promise<Response> {
  const admitted = await admit(req, REBUILD_BODY_LIMIT);
  if ('refused' in admitted) return admitted.refused;
  if ('unavailable' in admitted) return Response.json({ error: { code: 'UNAVAILABLE', message: 'engine unavailable' } }, { status: 503 });
  const { runtime } = admitted;

  const limited = await limitRequestBody(req, REBUILD_BODY_LIMIT);
  if (limited instanceof Response) return withSecurityHeaders(limited, runtime.allowedOrigins);
  let full = true;
  try {
    const body = (await limited.json()) as { full?: unknown };
    if (body && typeof body.full === 'boolean') full = body.full;
  } catch {
    // An empty body means the default: a full rebuild.
  }

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (e: RebuildEvent) => controller.enqueue(encoder.encode(`${JSON.stringify(e)}\n`));
      let last = -1;
      try {
        const report = await runtime.engine.index({
          full,
          onProgress(p) {
            const percent = Math.max(last, progressPercent(p));
            last = percent;
            send({ type: 'progress', phase: p.phase, done: p.done, total: p.total, message: p.message, percent });
          },
        });
        send({ type: 'done', percent: 100, report });
      } catch (e) {
        if (isEngineError(e)) send({ type: 'error', code: e.code, message: e.message });
        else {
          console.error('[engram-console] rebuild failed', e);
          send({ type: 'error', code: 'internal', message: 'Rebuild failed — see the console server log.' });
        }
      } finally {
        controller.close();
      }
    },
  });
  return withSecurityHeaders(
    new Response(stream, {
      headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
    }),
    runtime.allowedOrigins,
  );
}
