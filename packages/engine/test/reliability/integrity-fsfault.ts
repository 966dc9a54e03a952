// Fault injection for the integrity suites: replaces a node:fs or node:fs/promises function for the
// duration of a callback. The engine imports these functions by name; syncBuiltinESMExports makes those
// bindings see the replacement, so the real code path runs with no test hook in production code.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

type Fsp = typeof fsp;
type Fs = typeof fs;

/** Replaces `module[name]` with `make(original)` while `run` runs, and makes ESM importers see it. */
async function withPatched<M extends object, K extends keyof M, T>(module: M, name: K, make: (original: M[K]) => M[K], run: () => Promise<T>): Promise<T> {
  const original = module[name];
  module[name] = make(original);
  syncBuiltinESMExports();
  try {
    return await run();
  } finally {
    module[name] = original;
    syncBuiltinESMExports();
  }
}

export function withFsPatch<K extends keyof Fsp, T>(name: K, make: (original: Fsp[K]) => Fsp[K], run: () => Promise<T>): Promise<T> {
  return withPatched(fsp, name, make, run);
}

/** withFsPatch for a synchronous node:fs function (the diary swap runs its steps synchronously). */
export function withFsSyncPatch<K extends keyof Fs, T>(name: K, make: (original: Fs[K]) => Fs[K], run: () => Promise<T>): Promise<T> {
  return withPatched(fs, name, make, run);
}

/** An fs error as Node raises it (code + errno-style message). */
export function fsError(code: string, syscall = 'write', path = ''): NodeJS.ErrnoException {
  const e = new Error(`${code}: injected fault, ${syscall} '${path}'`) as NodeJS.ErrnoException;
  e.code = code;
  e.syscall = syscall;
  e.path = path;
  return e;
}

