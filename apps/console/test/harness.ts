// A real engine on a real libSQL file in a temp dir, and tRPC callers that look like the console page
// (same origin, install token) or like a stranger. Shared by the router tests.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { openEngine, type Engine } from '@engram/engine';
import { runtimeFor, type ConsoleRuntime } from '../src/server/engine.ts';
import { createCaller } from '../src/server/root.ts';
import { servicesOf } from '../src/server/services.ts';
import { createContext } from '../src/server/trpc.ts';

export interface Harness {
  root: string;
  engine: Engine;
  runtime: ConsoleRuntime;
  /** A caller like the console page: same origin, token header. */
  api: () => ReturnType<typeof createCaller>;
  /** A caller with only these headers (no token unless given). */
  stranger: (headers?: Record<string, string>) => ReturnType<typeof createCaller>;
}

export async function openHarness(t: { after(fn: () => unknown): void }, prefix = 'engram-console-'): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(root, 'diary'), { recursive: true });
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root } });
  const runtime = await runtimeFor(engine);
  t.after(async () => {
    // A Memory.md refresh a write started finishes before its folder goes.
    await servicesOf(runtime).mirrors.idle();
    engine.close();
    rmSync(root, { recursive: true, force: true });
  });
  const host = { host: '127.0.0.1:3999' };
  return {
    root,
    engine,
    runtime,
    api: () => createCaller(createContext(runtime, { headers: new Headers({ ...host, origin: 'http://127.0.0.1:3999', 'x-engram-token': runtime.token }) })),
    stranger: (headers = {}) => createCaller(createContext(runtime, { headers: new Headers({ ...host, ...headers }) })),
  };
}

export async function rejects(p: Promise<unknown>, code: TRPCError['code'], message?: RegExp): Promise<TRPCError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof TRPCError, `expected a TRPCError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected ${code}`);
}
