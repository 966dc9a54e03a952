// The files of a folder flood (tests and bench/flood.ts): small diaries, each with a token of its own.
import { diary } from '../engine/helpers.ts';

/** The i-th flood file: a dated name and a diary whose token `k<i>q` only it contains. */
export function floodFile(i: number): { name: string; text: string } {
  const day = `2026-${String(1 + (i % 9)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
  return {
    name: `${day}-flood${i}-${(0x10000000 + i).toString(16)}.txt`,
    text: diary('08:00', `洪水条目 k${i}q`, `第 ${i} 条同步来的记录。`, `从另一台机器同步过来的第 ${i} 条记录,主题 ${i % 97},标记 k${i}q。`, ['同步', `t${i % 50}`]),
  };
}

/**
 * The largest stretch this process's event loop went without running a timer, since the start or
 * the last reset (a loop held by synchronous work shows as one long gap).
 */
export function loopGapMeter(everyMs = 10): { largest(): number; reset(): void; stop(): void } {
  let lastTick = performance.now();
  let largest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    largest = Math.max(largest, now - lastTick);
    lastTick = now;
  }, everyMs);
  return {
    largest: () => largest,
    reset: () => void (largest = 0),
    stop: () => clearInterval(ticker),
  };
}
