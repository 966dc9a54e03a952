// Request size limits for the console's HTTP handlers. Next route handlers read any body whole, so
// a client could make the server buffer gigabytes; every POST goes through this first. The largest
// legitimate body is a whole-file save (500,000 characters, up to 3 bytes each in UTF-8) as JSON.
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

/**
 * Calls one tRPC request may batch. The console's pages and @engram/client split their batches at
 * this size (httpBatchLink maxItems); a larger one is refused before any call runs, so one request
 * cannot make the server run (or a query call a paid model) without bound.
 */
export const MAX_BATCH = 32;

export const tooLarge = (limit: number): Response =>
  Response.json(
    { error: { code: 'PAYLOAD_TOO_LARGE', message: `request body is larger than ${Math.round(limit / 1024)} KB; send less (split a large diary into several entries)` } },
    { status: 413 },
  );

/**
 * The request with its body read into memory, or a 413 response when it is (or claims to be) larger
 * than `limit` — decided from Content-Length when given, else while streaming, so an oversized body
 * is never buffered whole.
 */
/** True when the request says its body is larger than `limit`. */
export function declaredTooLarge(req: Request, limit = MAX_REQUEST_BYTES): boolean {
  const declared = Number(req.headers.get('content-length'));
  return Number.isFinite(declared) && declared > limit;
}

export async function limitRequestBody(req: Request, limit = MAX_REQUEST_BYTES): Promise<Request | Response> {
  if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return req;
  if (declaredTooLarge(req, limit)) return tooLarge(limit);
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return tooLarge(limit);
    }
    parts.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    body.set(p, at);
    at += p.byteLength;
  }
  return new Request(req.url, { method: req.method, headers: req.headers, body, signal: req.signal });
}
