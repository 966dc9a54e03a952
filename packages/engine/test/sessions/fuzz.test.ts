// Reliability: damaged session logs never throw. Thousands of seeded mutations of a valid
// multi-frame log (flipped bytes, truncation, inserted magic bytes, garbage, duplicated and
// dropped spans) go through the whole path — frames, turns, session_read text in every view, search
// inside a session, a memory's place in it, import drafts.
// Every frame before the damage must still be read; frames after it are found again by resync.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrames } from '../../src/sessions/frames.ts';
import { draftImports } from '../../src/sessions/import.ts';
import { sessionSearchPage } from '../../src/sessions/search.ts';
import { memoryAnchor } from '../../src/sessions/source.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';
import { parseSessionLog } from '../../src/sessions/log.ts';
import { formatSessionList, sessionReadPage } from '../../src/sessions/read.ts';
import { listItemOf } from '../../src/sessions/list.ts';
import { concat, EventWriter, frameOf, prng, rawFrame, richSession, simpleTurn, T0, zstdReady } from './fixtures.ts';

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
// The gram tokenizer: the paths under test do not depend on which one, and it needs no dictionary.
const gram = createTokenizer({ kind: 'gram' });

interface Corpus {
  bytes: Uint8Array;
  /** Start offset and row count of each frame. */
  frames: { start: number; end: number; rows: number }[];
}

async function corpus(): Promise<Corpus> {
  await zstdReady();
  const rich = richSession();
  const w = new EventWriter(T0 + 60_000);
  w.seq = 500;
  const rowsPerFrame: unknown[][] = [...rich.rows];
  for (let i = 3; i <= 12; i++) rowsPerFrame.push(simpleTurn(w, i, `第 ${i} 轮的问题 ${'内容'.repeat(i)}`, `第 ${i} 轮的结论`));
  const parts = rowsPerFrame.map((rows, i) => (i % 4 === 3 ? rawFrame(Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n')) : frameOf(rows, 1 + (i % 5))));
  const frames: Corpus['frames'] = [];
  let at = 0;
  parts.forEach((p, i) => {
    frames.push({ start: at, end: at + p.length, rows: rowsPerFrame[i]!.length });
    at += p.length;
  });
  return { bytes: concat(parts), frames };
}

type Mutation = { name: string; bytes: Uint8Array; at: number };

function mutate(src: Uint8Array, rnd: () => number): Mutation {
  const pick = (n: number) => Math.floor(rnd() * n);
  const b = Uint8Array.from(src);
  switch (pick(7)) {
    case 0: {
      const flips = 1 + pick(4);
      let first = b.length;
      for (let i = 0; i < flips; i++) {
        const at = pick(b.length);
        b[at] = b[at]! ^ (1 << pick(8));
        first = Math.min(first, at);
      }
      return { name: 'flip', bytes: b, at: first };
    }
    case 1: {
      const at = pick(src.length + 1);
      return { name: 'truncate', bytes: src.subarray(0, at), at };
    }
    case 2: {
      const at = pick(src.length + 1);
      return { name: 'insert-magic', bytes: concat([src.subarray(0, at), Uint8Array.from(MAGIC), src.subarray(at)]), at };
    }
    case 3: {
      const at = pick(src.length + 1);
      const junk = Uint8Array.from({ length: 1 + pick(64) }, () => pick(256));
      return { name: 'insert-garbage', bytes: concat([src.subarray(0, at), junk, src.subarray(at)]), at };
    }
    case 4: {
      const at = pick(src.length);
      const len = 1 + pick(Math.min(200, src.length - at));
      return { name: 'drop-span', bytes: concat([src.subarray(0, at), src.subarray(at + len)]), at };
    }
    case 5: {
      const from = pick(src.length);
      const len = 1 + pick(Math.min(300, src.length - from));
      const at = pick(src.length + 1);
      return { name: 'duplicate-span', bytes: concat([src.subarray(0, at), src.subarray(from, from + len), src.subarray(at)]), at };
    }
    default: {
      // Overwrite a run with magic-led noise: a fake frame header in the middle of real data.
      const at = pick(Math.max(1, src.length - 12));
      b.set(MAGIC, at);
      for (let i = at + 4; i < Math.min(b.length, at + 4 + pick(16)); i++) b[i] = pick(256);
      return { name: 'fake-header', bytes: b, at };
    }
  }
}

test('2,000 mutations of a valid log never throw; frames before the damage are always read', async () => {
  const { bytes, frames } = await corpus();
  const clean = decodeFrames(bytes);
  assert.equal(clean.badFrames, 0);
  assert.equal(clean.frames, frames.length);
  const totalRows = clean.rows.length;

  const rnd = prng(20260309);
  let afterExpected = 0;
  let afterRecovered = 0;
  const kinds = new Map<string, number>();
  for (let i = 0; i < 2000; i++) {
    const m = mutate(bytes, rnd);
    kinds.set(m.name, (kinds.get(m.name) ?? 0) + 1);
    let decoded;
    try {
      decoded = decodeFrames(m.bytes);
      const log = parseSessionLog(decoded.rows, { fallbackId: 'fuzz' });
      const page = sessionReadPage(log, { maxChars: 2000 });
      assert.ok(page.text.length <= 2000);
      draftImports(log, { tokenizer: gram, thinking: true });
      formatSessionList([listItemOf({ dirName: 'fuzz', project: 'p', file: '/x', bytes: m.bytes.length, mtimeMs: 0 }, log)], { maxChars: 1000 });
    } catch (error) {
      assert.fail(`mutation #${i} (${m.name} at ${m.at}) threw: ${error instanceof Error ? error.stack : String(error)}`);
    }
    assert.ok(decoded.rows.length <= totalRows * 2 + 10, 'rows come only from real frames');
    for (const key of ['frames', 'badFrames', 'badLines', 'skippedBytes'] as const) assert.ok(Number.isInteger(decoded[key]) && decoded[key] >= 0);

    // Every frame wholly before the first damaged byte decodes exactly as in the clean log.
    const intact = frames.filter((f) => f.end <= m.at);
    const before = intact.reduce((n, f) => n + f.rows, 0);
    assert.deepEqual(decoded.rows.slice(0, before), clean.rows.slice(0, before), `mutation #${i} (${m.name} at ${m.at}) lost rows before the damage`);

    // Frames wholly after the damage are found again (a duplicated span may add rows; not counted here).
    if (m.name === 'flip' || m.name === 'insert-magic' || m.name === 'insert-garbage' || m.name === 'fake-header') {
      const damaged = frames.findIndex((f) => f.end > m.at);
      if (damaged !== -1) {
        const after = frames.slice(damaged + 1).reduce((n, f) => n + f.rows, 0);
        afterExpected += after;
        const present = new Set(decoded.rows.map((r) => JSON.stringify(r)));
        afterRecovered += clean.rows.slice(totalRows - after).filter((row) => present.has(JSON.stringify(row))).length;
      }
    }
  }
  assert.equal(kinds.size, 7, 'every kind of damage was tried');
  // Resynchronisation: nearly all rows after a local damage come back (a flipped block header
  // can, rarely, make a frame swallow its neighbour).
  assert.ok(afterRecovered >= afterExpected * 0.95, `recovered ${afterRecovered} of ${afterExpected} rows after the damage`);
});

test('random bytes and random rows never throw', async () => {
  await zstdReady();
  const rnd = prng(42);
  const pick = (n: number) => Math.floor(rnd() * n);
  for (let i = 0; i < 300; i++) {
    const noise = Uint8Array.from({ length: pick(4096) }, () => pick(256));
    // Sprinkle magic so the frame walker is exercised on garbage.
    for (let k = 0; k < 4 && noise.length > 8; k++) noise.set(MAGIC, pick(noise.length - 4));
    const out = decodeFrames(noise);
    assert.equal(out.rows.length, 0);
  }
  const values: unknown[] = [null, 0, -1, 1e300, 'x', '', true, [], {}, [{ type: 'text', text: 5 }], { kind: 'user' }, '{"a":', Number.NaN];
  const any = () => values[pick(values.length)];
  const types = ['user/message', 'assistant/message', 'tool/call', 'tool/result', 'turn/start', 'turn/end', 'session/title', 'session/header', 'compaction/summary', 'x'];
  for (let i = 0; i < 300; i++) {
    const rows: unknown[] = [];
    for (let k = 0; k < 30; k++) {
      const data = { content: any(), message: pick(2) ? { content: any() } : any(), source: pick(2) ? { kind: pick(2) ? 'user' : any() } : any(), arguments: any(), name: any(), callId: any(), title: any(), id: any(), error: any() };
      rows.push(pick(10) === 0 ? any() : { type: types[pick(types.length)], seq: pick(3) ? k : any(), time: any(), data: pick(8) ? data : any(), id: pick(5) ? undefined : any(), cwd: any() });
    }
    const log = parseSessionLog(rows, { keepRaw: true });
    for (const view of ['turns', 'thinking', 'raw'] as const) sessionReadPage(log, { maxChars: 1000, turns: [pick(5), pick(5)], view });
    sessionSearchPage(log, 'x 东京 端口', gram, { maxChars: 1000, view: 'raw' });
    memoryAnchor(log, { docId: 'd', title: 'x', text: String(any()), date: '2026-03-09', time: '09:31' }, gram);
    draftImports(log, { tokenizer: gram, thinking: true });
  }
});
