// The model's optimised graph is saved once beside the model and loaded with optimisation off
// afterwards (local-embedder.ts, optimizedModelOf): which session each load asks for, through a
// stand-in runtime; and, with the real model, that the vectors are the ones optimising at load gives.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { installedModel, modelDirOf } from '../../src/model/install.ts';
import { loadRuntime, type Transformers } from '../../src/model/runtime.ts';
import { inspectModelDir, LocalEmbedder, optimizedModelOf } from '../../src/semantic/local-embedder.ts';
import { cosine } from '../../src/semantic/vector-index.ts';

const temp = mkdtempSync(join(tmpdir(), 'engram-optimized-model-'));
after(() => rmSync(temp, { recursive: true, force: true }));

function modelDir(name: string): string {
  const dir = join(temp, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), '{}');
  writeFileSync(join(dir, 'tokenizer.json'), '{}');
  writeFileSync(join(dir, 'onnx', 'model_quantized.onnx'), 'weights');
  return dir;
}

type Load = { model_file_name?: string; session_options: Record<string, unknown> };

/** A runtime whose model records how it was asked for, writes the optimised graph when told to, and fails on `broken` files. */
function standIn(version: string | undefined, broken = new Set<string>()): { runtime: Transformers; loads: Load[] } {
  const loads: Load[] = [];
  class Tensor {
    constructor(readonly type: string, readonly data: unknown, readonly dims: number[]) {}
  }
  const runtime = {
    env: { backends: { onnx: { versions: version ? { node: version } : {} } } },
    Tensor,
    AutoTokenizer: { from_pretrained: async () => ({ encode: (text: string) => [101, ...Array.from(text, () => 7), 102].slice(text === '' ? 1 : 0) }) },
    AutoModel: {
      from_pretrained: async (_name: string, options: Load) => {
        loads.push(options);
        if (options.model_file_name && broken.has(options.model_file_name)) throw new Error('bad graph');
        const saveTo = options.session_options.optimizedModelFilePath;
        if (typeof saveTo === 'string') writeFileSync(saveTo, 'optimised');
        const model = async (inputs: Record<string, { dims: number[] }>) => {
          const [n, width] = inputs.input_ids!.dims as [number, number];
          return { last_hidden_state: { dims: [n, width, 4], data: new Float32Array(n * width * 4).fill(1) } };
        };
        return model;
      },
    },
  };
  return { runtime: runtime as unknown as Transformers, loads };
}

describe('the optimised graph saved beside the model', () => {
  it('is written by the first load (at the machine-independent level) and read by the next with optimisation off', async () => {
    const dir = modelDir('first-then-saved');
    const saved = optimizedModelOf(inspectModelDir(dir), '9.9.9')!.file;
    assert.match(saved, /onnx\/model\.ort-9\.9\.9-[0-9a-f]{12}-optimized_quantized\.onnx$/);
    const { runtime, loads } = standIn('9.9.9');
    await LocalEmbedder.load(dir, { model: 'm', runtime });
    assert.equal(loads.length, 1);
    assert.equal(loads[0]!.session_options.graphOptimizationLevel, 'extended');
    assert.equal(loads[0]!.model_file_name, undefined, 'the model itself');
    assert.ok(existsSync(saved), 'the graph is kept under its onnxruntime version');

    await LocalEmbedder.load(dir, { model: 'm', runtime });
    assert.equal(loads.length, 2);
    assert.equal(loads[1]!.model_file_name, basename(saved).replace('_quantized.onnx', ''));
    assert.equal(loads[1]!.session_options.graphOptimizationLevel, 'disabled');
    assert.equal('optimizedModelFilePath' in loads[1]!.session_options, false);
    assert.equal(loads[1]!.session_options.enableCpuMemArena, true, 'the other settings as configured');
  });

  it('a saved graph that does not load is replaced; another level, or no known version, optimises at load as before', async () => {
    const dir = modelDir('broken');
    const saved = optimizedModelOf(inspectModelDir(dir), '9.9.9')!;
    const { runtime, loads } = standIn('9.9.9', new Set([saved.stem]));
    writeFileSync(saved.file, 'garbage');
    await LocalEmbedder.load(dir, { model: 'm', runtime });
    assert.deepEqual(loads.map((l) => [l.model_file_name, l.session_options.graphOptimizationLevel]), [[saved.stem, 'disabled'], [undefined, 'extended']]);

    const basic = standIn('9.9.9');
    await LocalEmbedder.load(modelDir('basic'), { model: 'm', runtime: basic.runtime, session: { graphOptimizationLevel: 'basic' } });
    assert.deepEqual(basic.loads.map((l) => [l.model_file_name, l.session_options.graphOptimizationLevel, 'optimizedModelFilePath' in l.session_options]), [[undefined, 'basic', false]]);
    const unknown = standIn(undefined);
    await LocalEmbedder.load(modelDir('unknown'), { model: 'm', runtime: unknown.runtime });
    assert.deepEqual(unknown.loads.map((l) => [l.session_options.graphOptimizationLevel, 'optimizedModelFilePath' in l.session_options]), [['all', false]]);
    writeFileSync(join(dir, 'onnx', 'model.onnx'), 'fp32 weights');
    assert.match(optimizedModelOf({ dir, dtype: 'fp32', modelFile: join(dir, 'onnx', 'model.onnx') }, '1.30.0')!.file, /onnx\/model\.ort-1\.30\.0-[0-9a-f]{12}-optimized\.onnx$/);
  });

  it('a model replaced in place is never read through the graph saved from the one before', async () => {
    const dir = modelDir('replaced');
    const { runtime, loads } = standIn('9.9.9');
    await LocalEmbedder.load(dir, { model: 'm', runtime });
    const before = optimizedModelOf(inspectModelDir(dir), '9.9.9')!;
    assert.ok(existsSync(before.file));
    writeFileSync(join(dir, 'onnx', 'model_quantized.onnx.new'), 'other weights');
    renameSync(join(dir, 'onnx', 'model_quantized.onnx.new'), join(dir, 'onnx', 'model_quantized.onnx'));
    const after = optimizedModelOf(inspectModelDir(dir), '9.9.9')!;
    assert.notEqual(after.file, before.file);
    await LocalEmbedder.load(dir, { model: 'm', runtime });
    assert.deepEqual([loads[1]!.model_file_name, loads[1]!.session_options.graphOptimizationLevel], [undefined, 'extended'], 'the new model, optimised at load');
    assert.ok(existsSync(after.file));
    assert.equal(existsSync(before.file), false, 'the old graph is gone');
  });
});

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR;
const available = Boolean(source && installedModel(source));

describe('with bge-small-zh-v1.5', { skip: available ? false : 'no real model (set ENGRAM_TEST_MODEL_DATA_DIR)' }, () => {
  it('the saved graph gives the vectors that optimising at load gives', async () => {
    // A copy: the graph is saved beside the model, and the model other tests read stays as installed.
    const dir = join(temp, 'real');
    cpSync(modelDirOf(source as string), dir, { recursive: true });
    const texts = ['东京节点的端口改成 8443,因为 443 被反向代理占用;重启后生效。', '猫把花盆从窗台上碰掉了', 'pgbouncer default_pool_size 设为 20'];
    const real = await loadRuntime(null);
    // The reference: the model itself, optimised at load at the configured level, nothing saved or read.
    const asBefore = {
      ...real,
      AutoModel: {
        from_pretrained: (name: string, options: Load & Record<string, unknown>) => {
          const { model_file_name: _file, ...rest } = options;
          const { optimizedModelFilePath: _path, ...session } = options.session_options;
          return real.AutoModel.from_pretrained(name, { ...rest, session_options: { ...session, graphOptimizationLevel: 'all' } });
        },
      },
    } as unknown as Transformers;
    const vectors = async (runtime?: Transformers) => {
      const e = await LocalEmbedder.load(dir, { model: 'bge-small-zh-v1.5', queryInstruction: '为这个句子生成表示以用于检索相关文章：', runtime });
      try {
        return [...(await e.embed(texts)), ...(await e.embed(['东京节点端口'], { purpose: 'query' }))];
      } finally {
        await e.dispose();
      }
    };
    const atLoad = await vectors(asBefore);
    const saved = optimizedModelOf(inspectModelDir(dir), (real.env.backends.onnx as { versions?: { node?: string } }).versions?.node)!.file;
    assert.equal(existsSync(saved), false);
    const saving = await vectors();
    assert.ok(existsSync(saved), 'saved by the first load');
    const reading = await vectors();
    for (const [i, v] of atLoad.entries()) {
      assert.ok(cosine(v, saving[i]!) >= 0.9999, `text ${i}: the load that saves`);
      assert.ok(cosine(v, reading[i]!) >= 0.9999, `text ${i}: the load that reads`);
    }
  });
});
