import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rivalCosine } from '../../src/recall/hybrid-gate.ts';
import { sameGroupOf } from '../../src/recall/near-duplicates.ts';
import { startFakeEmbedder } from '../semantic/fake-embedder.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const hit = (chunkId: string, score: number) => ({ chunkId, score });

test('rivalCosine: the best candidate that is not a copy of the first; the last when all are copies', () => {
  const hits = [hit('a', 0.9), hit('a2', 0.89), hit('a3', 0.88), hit('b', 0.7), hit('c', 0.6)];
  assert.equal(rivalCosine(hits, sameGroupOf([['a', 'a2', 'a3']])), 0.7);
  assert.equal(rivalCosine(hits, sameGroupOf([])), 0.89, 'no copies: the second candidate, as before');
  assert.equal(rivalCosine(hits, sameGroupOf([['b', 'c']])), 0.89, 'copies of another note do not matter');
  assert.equal(rivalCosine(hits.slice(0, 3), sameGroupOf([['a', 'a2', 'a3']])), 0.88, 'all copies: the last cosine');
  assert.equal(rivalCosine([hit('a', 0.9)], sameGroupOf([])), undefined);
  assert.equal(rivalCosine([], sameGroupOf([])), undefined);
  const same = sameGroupOf([['x', 'y'], ['z', 'w']]);
  assert.ok(same('x', 'y') && same('w', 'z') && same('q', 'q'));
  assert.ok(!same('x', 'z') && !same('q', 'x'));
});

// The same fact noted once and noted five times (each copy missing one sentence): the hybrid gate's
// margin — how far the first candidate stands above the rest — is measured against the best other
// note, never against a copy of the first, or a fact noted often looks less certain than one noted once.
const SENTENCES = ['东京节点的 443 端口原先被 nginx 占用。', '停掉 nginx 之后改由 sing-box 监听 443。', '节点时区调整为 UTC+9。', '证书由 acme.sh 每六十天续期一次。', '防火墙只放行 443 和 22 两个端口。'];
const note = (skip: number) => diary('21:14', '东京节点端口处置', '东京节点 443 端口的处置记录。', SENTENCES.filter((_, i) => i !== skip).join(''), ['东京节点']);

for (const copies of [0, 4]) {
  test(`the margin of a fact noted ${copies + 1} time(s) is measured against the best other note`, async () => {
    const server = await startFakeEmbedder({ dims: 64 });
    const dirs = tempDirs();
    seedCorpus(dirs.diaryDir);
    rmSync(join(dirs.diaryDir, '2026-10-20-tokyo-1a2b3c4d.txt')); // the seed's own note on this node
    writeFileSync(join(dirs.diaryDir, '2026-10-25-tokyo.txt'), note(-1));
    for (let k = 0; k < copies; k++) writeFileSync(join(dirs.diaryDir, `2026-10-2${6 + (k % 3)}-tokyo-copy${k}.txt`), note(k));
    const engine = await openTestEngine(dirs, {}, {
      embedding: { provider: 'openai', baseUrl: server.url, model: 'fake-bigram', dimensions: 64, minIntervalMs: 0, timeoutMs: 1500, maxRetries: 1 },
      recall: { minSemantic: 0.3 },
    });
    try {
      await engine.vectorsSettled();
      const r = await engine.recall('东京节点的 443 端口后来由谁监听', { gates: 'off' });
      assert.equal(r.explain.semantic.ran, true);
      const [top, ...others] = r.hits;
      assert.equal(top?.title, '东京节点端口处置');
      assert.equal(top.duplicates ?? 0, copies, 'the copies are one near-duplicate group, shown once');
      const rival = others.filter((h) => h.channels.semantic).sort((a, b) => b.channels.semantic!.score - a.channels.semantic!.score)[0];
      assert.ok(top.evidence && rival?.evidence, 'the hits carry the hybrid evidence');
      assert.ok(top.evidence.margin > 0.5, `the note stands out: margin ${top.evidence.margin.toFixed(2)}`);
      // zTop − margin is the rival's z: the best note that is not a copy of the first.
      assert.ok(Math.abs(top.evidence.zTop - top.evidence.margin - rival.evidence.z) < 1e-9, `rival z ${(top.evidence.zTop - top.evidence.margin).toFixed(3)}, best other note's z ${rival.evidence.z.toFixed(3)}`);
    } finally {
      engine.close();
      await server.close();
    }
  });
}
