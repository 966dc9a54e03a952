// A temporary DSH home with several sessions in two workspaces (and some that must not be listed).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concat, EventWriter, frameOf, prng, richSession, simpleTurn, T0, writeLog, zstdReady } from './fixtures.ts';

export const DAY = 86_400_000;

export const IDS = {
  rich: 'a1b2c3d4-1111-4aaa-8bbb-000000000001',
  sub: 'a1b2ffff-2222-4aaa-8bbb-000000000002',
  beta: 'b0b0b0b0-3333-4aaa-8bbb-000000000003',
  subagent: 'c0c0c0c0-4444-4aaa-8bbb-000000000004',
  nocwd: 'd0d0d0d0-5555-4aaa-8bbb-000000000005',
  alphabet: 'e0e0e0e0-6666-4aaa-8bbb-000000000006',
};

/** The damaged beta session: its frames before corruption (what must survive). */
export function betaBytes(): Uint8Array {
  const w = new EventWriter(T0 + 2 * DAY);
  const header = { id: IDS.beta, cwd: '/work/beta', createdAt: T0 + 2 * DAY };
  const f1 = frameOf([header, ...simpleTurn(w, 1, 'beta 第一轮问题', 'beta 第一轮回答')]);
  const corrupt = frameOf(simpleTurn(w, 2, 'beta 第二轮 LOST', '丢失的回答'));
  const rnd = prng(11);
  for (let i = 6; i < corrupt.length; i++) corrupt[i] = Math.floor(rnd() * 256);
  const f3 = frameOf(simpleTurn(w, 3, 'beta 第三轮问题', 'beta 第三轮回答'));
  const tail = frameOf(simpleTurn(w, 4, 'beta 第四轮 TRUNCATED', '截断'));
  return concat([f1, corrupt, f3, tail.subarray(0, tail.length - 5)]);
}

export async function makeHome(t: { after(fn: () => unknown): void }): Promise<string> {
  await zstdReady();
  const home = mkdtempSync(join(tmpdir(), 'engram-dsh-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));

  const rich = richSession(IDS.rich, '/work/alpha', T0);
  writeLog(home, 'alpha', IDS.rich, concat(rich.frames));

  const ws = new EventWriter(T0 + DAY);
  writeLog(home, 'alpha', IDS.sub, concat([frameOf([{ id: IDS.sub, cwd: '/work/alpha/sub', createdAt: T0 + DAY }]), frameOf(simpleTurn(ws, 1, '子目录里的问题', '子目录里的回答'))]));

  writeLog(home, 'beta', IDS.beta, betaBytes());

  const wa = new EventWriter(T0 + 3 * DAY);
  writeLog(home, 'alpha', IDS.subagent, frameOf([{ id: IDS.subagent, cwd: '/work/alpha', origin: 'subagent', parentSession: IDS.rich }, ...simpleTurn(wa, 1, '子代理任务', '子代理结果')]));

  const wn = new EventWriter(T0 + 4 * DAY);
  writeLog(home, 'misc', IDS.nocwd, frameOf([{ id: IDS.nocwd }, ...simpleTurn(wn, 1, '没有 cwd 的会话', '回答')]));

  const wb = new EventWriter(T0 + 5 * DAY);
  writeLog(home, 'alphabet', IDS.alphabet, frameOf([{ id: IDS.alphabet, cwd: '/work/alphabet' }, ...simpleTurn(wb, 1, '相邻目录', '回答')]));
  return home;
}
