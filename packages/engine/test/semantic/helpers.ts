// Shared set-up for the semantic channel tests: a real libSQL file per test and a config.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { configSchema, type EngramConfig } from '../../src/config/schema.ts';
import type { SemanticLog, SyncChunk } from '../../src/semantic/channel.ts';

export function tempDbUrl(): string {
  return `file:${join(mkdtempSync(join(tmpdir(), 'engram-sem-')), 'engram.db')}`;
}

export function openClient(url = tempDbUrl()): Client {
  return createClient({ url });
}

export function embeddingConfig(embedding: Record<string, unknown>, chunk: { size?: number; overlap?: number } = {}): EngramConfig {
  return configSchema.parse({ embedding, chunk });
}

export interface CapturedLog {
  log: SemanticLog;
  lines: string[];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return { lines, log: (level, message, data) => lines.push(JSON.stringify({ level, message, ...data })) };
}

/** A small corpus with recognisable topics (English and Chinese). */
export const CORPUS: { doc: string; text: string }[] = [
  { doc: 'd1', text: 'I drank a flat white coffee at the corner cafe this morning' },
  { doc: 'd1', text: 'The espresso machine at home needs descaling again' },
  { doc: 'd2', text: 'Our cat knocked the plant off the windowsill' },
  { doc: 'd2', text: 'The dog barked at the postman for ten minutes' },
  { doc: 'd3', text: 'Refactored the vector index to use a contiguous Float32Array' },
  { doc: 'd3', text: 'Benchmark of libSQL vector_distance_cos at one hundred thousand rows' },
  { doc: 'd4', text: '今天天气晴朗,下午去公园散步' },
  { doc: 'd4', text: '周末下雨,在家写日记整理记忆' },
  { doc: 'd5', text: 'Booked train tickets to Hangzhou for the holiday' },
  { doc: 'd5', text: 'Packed the suitcase and checked the hotel reservation' },
];

export function corpusChunks(corpus = CORPUS): SyncChunk[] {
  const ord = new Map<string, number>();
  return corpus.map((c) => {
    const n = ord.get(c.doc) ?? 0;
    ord.set(c.doc, n + 1);
    return { id: `${c.doc}#${n}`, text: c.text, fingerprint: fingerprintText(c.text) };
  });
}

export function fingerprintText(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `h${h.toString(16)}:${text.length}`;
}
