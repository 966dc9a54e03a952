// Synthetic Chinese diaries for benchmarks: sentences drawn (seeded) from CMRC paragraphs, so the
// vocabulary and sentence shapes are real while the corpus can be any size.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCmrc } from './eval-cmrc.ts';

export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let sentences: string[] | null = null;
export function cmrcSentences(): string[] {
  if (!sentences) sentences = loadCmrc().flatMap((p) => p.context.split(/(?<=[。！？])/).map((s) => s.trim()).filter((s) => s.length >= 8));
  return sentences;
}

/** Writes `docs` diary files of about `charsPerDoc` characters each; returns the sentence pool used. */
export function writeSyntheticDiaries(dir: string, docs: number, charsPerDoc: number, seed = 7): void {
  const pool = cmrcSentences();
  const rnd = seededRandom(seed);
  const pick = () => pool[Math.floor(rnd() * pool.length)]!;
  for (let i = 0; i < docs; i++) {
    let body = '';
    while (body.length < charsPerDoc) body += pick();
    const title = pick().slice(0, 18);
    const sub = join(dir, `f${i % 20}`);
    if (i < 20) mkdirSync(sub, { recursive: true });
    const day = String((i % 28) + 1).padStart(2, '0');
    writeFileSync(join(sub, `2026-10-${day}-d${i}.txt`), `[09:00] ${title}\n\n> ${pick()}\n\n${body}\n\nTag: 基准, 合成\n`);
  }
}

export function syntheticQueries(n: number, seed = 11): string[] {
  const pool = cmrcSentences();
  const rnd = seededRandom(seed);
  return Array.from({ length: n }, () => {
    const s = pool[Math.floor(rnd() * pool.length)]!;
    const start = Math.floor(rnd() * Math.max(1, s.length - 14));
    return s.slice(start, start + 6 + Math.floor(rnd() * 10));
  });
}
