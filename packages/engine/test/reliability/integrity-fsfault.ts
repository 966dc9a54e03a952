// Fault injection for the integrity suites: replaces a node:fs/promises function for the duration of
// a callback. The engine imports these functions by name; syncBuiltinESMExports makes those
// bindings see the replacement, so the real code path runs with no test hook in production code.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

type Fsp = typeof fsp;

export async function withFsPatch<K extends keyof Fsp, T>(name: K, make: (original: Fsp[K]) => Fsp[K], run: () => Promise<T>): Promise<T> {
  const original = fsp[name];
  (fsp as Record<string, unknown>)[name] = make(original);
  syncBuiltinESMExports();
  try {
    return await run();
  } finally {
    (fsp as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
}

/** An fs error as Node raises it (code + errno-style message). */
export function fsError(code: string, syscall = 'write', path = ''): NodeJS.ErrnoException {
  const e = new Error(`${code}: injected fault, ${syscall} '${path}'`) as NodeJS.ErrnoException;
  e.code = code;
  e.syscall = syscall;
  e.path = path;
  return e;
}

type Fs = typeof fs;

/**
 * withFsPatch for a synchronous node:fs function (the diary swap runs its steps synchronously):
 * `make` gets the original and returns the stand-in, for the duration of `run`.
 */
export async function withFsSyncPatch<K extends keyof Fs, T>(name: K, make: (original: Fs[K]) => Fs[K], run: () => Promise<T>): Promise<T> {
  const original = fs[name];
  (fs as Record<string, unknown>)[name] = make(original);
  syncBuiltinESMExports();
  try {
    return await run();
  } finally {
    (fs as Record<string, unknown>)[name] = original;
    syncBuiltinESMExports();
  }
}
