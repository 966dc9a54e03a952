// Plugin HTTP routes on a real node:http server (127.0.0.1, random port). rc.8 calls the service
// `webServer`, newer hosts `httpServer`; both names reach this one route table. Handlers get the
// raw Node request and response; the host adds no auth and no Origin check (the plugin guards its
// own writes), and a duplicate path throws.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, ServiceProvider } from '../context.ts';

export interface RouteDefinition {
  kind: 'exact' | 'prefix';
  path: string;
  handler(req: IncomingMessage, res: ServerResponse): unknown;
}

interface Route extends RouteDefinition {
  owner: string;
}

/** The route serving `pathname`: an exact match first, then the longest matching prefix. */
export function matchRoute<T extends RouteDefinition>(routes: readonly T[], pathname: string): T | undefined {
  const exact = routes.find((r) => r.kind === 'exact' && r.path === pathname);
  if (exact) return exact;
  let best: T | undefined;
  for (const route of routes) {
    if (route.kind !== 'prefix') continue;
    const base = route.path.endsWith('/') ? route.path : `${route.path}/`;
    const hit = pathname === route.path || pathname.startsWith(base);
    if (hit && (!best || route.path.length > best.path.length)) best = route;
  }
  return best;
}

export class HttpRoutes implements ServiceProvider {
  private readonly routes: Route[] = [];
  private server: Server | undefined;
  private url: string | undefined;

  constructor(private readonly onError: (where: string, owner: string, error: unknown) => void) {}

  register(def: RouteDefinition, owner = '<host>'): () => void {
    if (def?.kind !== 'exact' && def?.kind !== 'prefix') throw new TypeError(`route kind must be 'exact' or 'prefix', got ${String(def?.kind)}`);
    if (typeof def.path !== 'string' || !def.path.startsWith('/')) throw new TypeError(`route path must start with "/": ${String(def.path)}`);
    if (typeof def.handler !== 'function') throw new TypeError(`route ${def.path} needs a handler`);
    if (this.routes.some((r) => r.path === def.path)) throw new Error(`route "${def.path}" is already registered`);
    const route: Route = { kind: def.kind, path: def.path, handler: def.handler, owner };
    this.routes.push(route);
    return () => {
      const index = this.routes.indexOf(route);
      if (index >= 0) this.routes.splice(index, 1);
    };
  }

  paths(): string[] {
    return this.routes.map((r) => r.path);
  }

  get baseUrl(): string {
    if (!this.url) throw new Error('the host HTTP server is not listening: await host.listen() first');
    return this.url;
  }

  async listen(): Promise<string> {
    if (this.url) return this.url;
    const server = createServer((req, res) => void this.dispatch(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://host').pathname;
    const route = matchRoute(this.routes, pathname);
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    try {
      await route.handler(req, res);
    } catch (error) {
      this.onError(`http ${req.method} ${pathname}`, route.owner, error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      if (!res.writableEnded) res.end('internal error');
    }
  }

  facade(ctx: Context) {
    return { register: (def: RouteDefinition) => ctx.track(this.register(def, ctx.name)) };
  }
}
