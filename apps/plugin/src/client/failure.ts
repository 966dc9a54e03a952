// Chinese lines for what can go wrong between the web UI and the plugin's host routes. The browser's
// own error texts are English ("Failed to fetch", "Unexpected token '<' … is not valid JSON"), so
// they go to the console for whoever debugs, and the user reads a Chinese line with the status. Pure.

/** A route answered, but not with what the client needs (an error status or a body that is not JSON). */
export class RouteError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly kind: 'status' | 'not-json',
  ) {
    super(`${path}: ${kind === 'status' ? `HTTP ${status}` : `HTTP ${status}, not JSON`}`);
    this.name = 'RouteError';
  }
}

/** What a failed fetch or read means, in Chinese. */
export function describeFailure(error: unknown): string {
  if (error instanceof RouteError) {
    return error.kind === 'status' ? `宿主回答 HTTP ${error.status}` : `宿主的回答不是 JSON(HTTP ${error.status})`;
  }
  // fetch rejects with a TypeError when nothing answers (host stopped, network gone).
  if (error instanceof TypeError) return '连不上宿主';
  return '未知错误,详见浏览器控制台';
}

interface Answer {
  status: number;
  ok: boolean;
  json(): Promise<unknown>;
}

/**
 * The body of a route's answer as JSON; a body that is not JSON is a RouteError. An error status is
 * one too unless `acceptErrorBody` (the recheck route explains its refusals in a JSON body).
 */
export async function readJsonAnswer<T>(path: string, res: Answer, acceptErrorBody = false): Promise<T> {
  if (!res.ok && !acceptErrorBody) throw new RouteError(path, res.status, 'status');
  try {
    return (await res.json()) as T;
  } catch {
    throw new RouteError(path, res.status, res.ok ? 'not-json' : 'status');
  }
}
