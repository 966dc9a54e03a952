// The real model (bge-small-zh-v1.5) in a worker thread (and once in a child process) against the same model inline: the same
// batch gives the same vectors (cosine ≥ 0.999), queries get their instruction, long texts their
// windows, and a worker restarted after idling answers as the first one did. Skipped unless
// ENGRAM_TEST_MODEL_DATA_DIR points at a data dir with the model (scripts/test-all.mjs sets it).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { installedModel, modelDirOf } from '../../src/model/install.ts';
import { LocalEmbedder } from '../../src/semantic/local-embedder.ts';
import { cosine } from '../../src/semantic/vector-index.ts';
import { WorkerEmbedder } from '../../src/semantic/worker-embedder.ts';

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
const available = Boolean(source && installedModel(source));
if (!available && process.env.CI) throw new Error('CI must run the real-model tests: set ENGRAM_TEST_MODEL_DATA_DIR to a data dir with the model (.ci/run does)');
const skip = available ? false : 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR; .ci/run installs it)';

const options = { model: 'bge-small-zh-v1.5', threads: 1, queryInstruction: '为这个句子生成表示以用于检索相关文章：' };
const batch = [
  '东京节点改用八四四三端口，防火墙规则已经更新。',
  '周报每周五下午写，发给组里所有人。',
  `${'今天整理了很多关于项目排期和会议安排的琐碎事项，大家讨论了下一季度的预算。'.repeat(20)}最后确认东京节点改用八四四三端口。`,
  'the cat knocked the plant off the windowsill',
];

describe('bge-small-zh-v1.5 in a worker thread', { skip }, () => {
  let inline: LocalEmbedder;
  let worker: WorkerEmbedder;
  before(async () => {
    const dir = modelDirOf(source as string);
    inline = await LocalEmbedder.load(dir, options);
    worker = await WorkerEmbedder.load(dir, options, { idleMs: 50 });
  });
  after(async () => {
    await inline?.dispose();
    await worker?.dispose();
  });

  it('reports what the inline embedder reports', () => {
    assert.equal(worker.dimensions, 512);
    assert.equal(worker.dimensions, inline.dimensions);
    assert.equal(worker.endpoint, inline.endpoint);
    assert.equal(worker.quantised, inline.quantised);
  });

  it('a child-process worker embeds the same batch too (cosine >= 0.999)', async () => {
    const proc = await WorkerEmbedder.load(modelDirOf(source as string), options, { isolation: 'process', idleMs: 0 });
    try {
      const a = await inline.embed(batch, { purpose: 'query' });
      const b = await proc.embed(batch, { purpose: 'query' });
      for (let i = 0; i < batch.length; i++) assert.ok(cosine(a[i] as Float32Array, b[i] as Float32Array) >= 0.999, `text ${i}`);
    } finally {
      await proc.dispose();
    }
  });

  for (const purpose of ['document', 'query'] as const) {
    it(`embeds the same ${purpose} batch as the inline embedder (cosine >= 0.999)`, async () => {
      const a = await inline.embed(batch, { purpose });
      const b = await worker.embed(batch, { purpose });
      for (let i = 0; i < batch.length; i++) {
        const c = cosine(a[i] as Float32Array, b[i] as Float32Array);
        assert.ok(c >= 0.999, `${purpose} ${i}: cosine ${c}`);
      }
    });
  }

  it('a worker started again after idling gives the vectors the first one gave', async () => {
    const first = await worker.embed(batch);
    for (let i = 0; i < 500 && worker.alive; i++) await new Promise((ok) => setTimeout(ok, 10));
    assert.equal(worker.alive, false, 'the idle worker ended');
    const starts = worker.starts;
    const again = await worker.embed(batch);
    assert.equal(worker.starts, starts + 1);
    for (let i = 0; i < batch.length; i++) assert.ok(cosine(first[i] as Float32Array, again[i] as Float32Array) >= 0.99999, `text ${i}`);
  });
});
