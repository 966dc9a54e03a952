import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStages, type Stage } from '../../src/recall/stage.ts';

test('runStages feeds each stage the previous one\'s candidates and records name, counts and time per stage, in order', async () => {
  const seen: number[][] = [];
  const dropOdd: Stage<number, { limit: number }> = {
    name: 'drop-odd',
    run: (c) => {
      seen.push(c);
      const kept = c.filter((x) => x % 2 === 0);
      return { candidates: kept, record: { kept: kept.length, dropped: c.length - kept.length } };
    },
  };
  const limit: Stage<number, { limit: number }> = {
    name: 'limit',
    run: async (c, ctx) => {
      seen.push(c);
      return { candidates: c.slice(0, ctx.limit), record: { kept: Math.min(c.length, ctx.limit), dropped: Math.max(0, c.length - ctx.limit), note: `limit=${ctx.limit}` } };
    },
  };
  const out = await runStages([dropOdd, limit], [1, 2, 3, 4, 6], { limit: 2 });
  assert.deepEqual(out.candidates, [2, 4]);
  assert.deepEqual(seen, [[1, 2, 3, 4, 6], [2, 4, 6]]);
  assert.deepEqual(out.records.map(({ ms, ...r }) => r), [
    { name: 'drop-odd', kept: 3, dropped: 2 },
    { name: 'limit', kept: 2, dropped: 1, note: 'limit=2' },
  ]);
  for (const r of out.records) assert.ok(r.ms >= 0 && Number.isFinite(r.ms));
});
