// The simulated host with the plugin loaded over a fresh data folder, for measuring what Engram adds
// to every request: `npm run bench:tokens` and the docs' tool-profiles table (scripts/docs-sections.ts).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '@engram/dsh-sim';
import { createHostPlugin } from '../src/host/apply.ts';
import type { ToolProfile } from '../src/host/tools/profiles.ts';

/** The host's own tools (todo_write): not Engram's cost. */
export const HOST_TOOLS = new Set(['todo_write']);

/**
 * Runs `run` with a host whose plugin has opened its index over `seed`'s diaries (none: an empty
 * memory), then closes it and removes the folder. Measured once the index is open: a turn waits for
 * the open only a moment (recallWaitMs), and on a loaded machine it went on without the sections
 * that need the engine.
 */
export async function withFreshHost<T>(profile: ToolProfile, seed: ((diaryDir: string) => void) | null, run: (host: ReturnType<typeof createHost>, cwd: string) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), `engram-fresh-host-${profile}-`));
  const diaryDir = join(root, 'diaries');
  mkdirSync(diaryDir);
  seed?.(diaryDir);
  const host = createHost({});
  try {
    let opening: Promise<unknown> = Promise.resolve();
    await host.load(createHostPlugin({ env: { DSH_HOME: join(root, 'dsh') }, onOpening: (ready) => (opening = ready) }), { diaryDir, dataDir: join(root, 'data'), tools: { profile }, model: { autoInstall: false } });
    await opening;
    return await run(host, join(root, 'work'));
  } finally {
    await host.close();
    rmSync(root, { recursive: true, force: true });
  }
}
