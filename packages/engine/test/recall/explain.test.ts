// The recall explanation is derived from the stage records (#18): the listed records are the stage
// list, removals are collected in stage order, timings are summed by kind, and an engine recall's
// explanation follows the stage list of recall/stages/index.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recallResultOf, type RecallRecord } from '../../src/recall/explain.ts';
import { RELEVANCE_STAGES } from '../../src/recall/stages/index.ts';
import { openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const query = { distinctiveTokens: ['东京'], noDistinctiveTokens: false, queryInformation: 9.5, idfAvailable: true, idfThreshold: 1.2 };
const removal = (gate: 'coverage' | 'judge', chunkId: string) => ({ gate, chunkId, docId: chunkId.split('#')[0]!, title: chunkId, detail: gate });

test('recallResultOf: listed records are the stages, removals in stage order, timings by kind, missing parts refused', () => {
  const records: RecallRecord[] = [
    { name: 'tokenize', ms: 1, kept: 0, dropped: 0, listed: false, explain: { query } },
    { name: 'lexical', ms: 2, kept: 5, dropped: 1, note: 'scope: ws-1 + global', explain: { lexical: { candidates: 5 } } },
    { name: 'semantic', ms: 3, kept: 0, dropped: 0, note: 'off', explain: { semantic: { ran: false, skipped: 'off', candidates: 0, background: null } } },
    { name: 'gate', ms: 0.5, kept: 3, dropped: 2, explain: { removals: [removal('coverage', 'a#0'), removal('coverage', 'b#0')] } },
    { name: 'collapse', ms: 0.25, kept: 2, dropped: 1 },
    { name: 'pool', ms: 4, kept: 2, dropped: 0, listed: false, explain: { k: { chosen: 3, reason: 'kBase' } } },
    { name: 'judge', ms: 7, kept: 1, dropped: 1, listed: false, explain: { judge: { applied: true, dropped: 1, reason: null, ms: 7 }, removals: [removal('judge', 'c#0')] } },
    { name: 'select', ms: 0.1, kept: 1, dropped: 1, note: 'k=3', explain: { maxChars: { limit: 900, used: 40, truncatedItems: 0 } } },
  ];
  const r = recallResultOf({ query: '东京', tokenizer: 'gram', tokens: [], hits: [], records, totalMs: 20 });
  assert.deepEqual(r.explain.stages.map((s) => s.name), ['lexical', 'semantic', 'gate', 'collapse', 'select']);
  assert.deepEqual(r.explain.stages[0], { name: 'lexical', kept: 5, dropped: 1, note: 'scope: ws-1 + global', ms: 2 });
  assert.deepEqual(r.explain.gate.removals.map((x) => x.chunkId), ['a#0', 'b#0', 'c#0']);
  assert.deepEqual(r.explain.gate.byGate, { coverage: 2, judge: 1 });
  assert.equal(r.explain.gate.removed, 3);
  assert.equal(r.explain.gate.queryInformation, 9.5);
  assert.deepEqual(r.explain.k, { chosen: 3, reason: 'kBase' });
  assert.equal(r.explain.judge?.applied, true);
  assert.equal(r.explain.time, null);
  assert.deepEqual(r.timing, {
    totalMs: 20, tokenizeMs: 1, lexicalMs: 2, semanticMs: 3, fuseMs: 0, gateMs: 0.75, judgeMs: 7,
    stages: records.map((x) => ({ name: x.name, ms: x.ms })),
  });
  assert.throws(() => recallResultOf({ query: 'x', tokenizer: 'gram', tokens: [], hits: [], records: records.filter((x) => x.name !== 'pool'), totalMs: 1 }), /k/);
});

test('an engine recall explains itself from the stage list: every stage timed, the listed ones counted', async () => {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  try {
    const r = await engine.recall('东京节点的 443 端口被谁占用');
    assert.equal(r.hits[0]?.title, '东京节点 443 端口处置');
    assert.deepEqual(r.timing.stages?.map((s) => s.name), RELEVANCE_STAGES.map((s) => s.name));
    assert.deepEqual(r.explain.stages.map((s) => s.name), ['lexical', 'semantic', 'fuse', 'gate', 'collapse', 'select']);
    const select = r.explain.stages.at(-1)!;
    assert.equal(select.kept, r.hits.length);
    assert.equal(r.explain.gate.removed, r.explain.gate.removals.length);
  } finally {
    engine.close();
  }
});
