// How far re-embedding the same text moves with the company it is batched in, against how far a
// wrong model or a wrong vector is: the numbers the semantic integrity check's tolerance rests on.
// The int8 model quantises activations over the whole padded batch, so a text's vector depends a
// little on its batch-mates. Texts: CMRC 2018 dev contexts cut to chunk-sized pieces.
//
//   ENGRAM_TEST_MODEL_DATA_DIR=<data dir with the model> npx tsx packages/engine/bench/integrity-drift.ts [N]
import { readFileSync } from 'node:fs';
import { installedModel } from '../src/model/install.ts';
import { LocalEmbedder } from '../src/semantic/local-embedder.ts';
import { cosine } from '../src/semantic/vector-index.ts';

const source = process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? '';
const found = source ? installedModel(source) : null;
if (!found) throw new Error('set ENGRAM_TEST_MODEL_DATA_DIR to a data dir with the model (scripts/test-all.mjs installs one)');
const n = Number(process.argv[2] ?? 128);
const dataset = new URL('../../../../shared/datasets/cmrc2018/cmrc2018_dev.json', import.meta.url).pathname;
const data = JSON.parse(readFileSync(dataset, 'utf8')) as { data: { paragraphs: { context: string }[] }[] };
const texts: string[] = [];
for (const d of data.data) for (const p of d.paragraphs) if (texts.length < n) texts.push(p.context.slice(0, 60 + (texts.length % 7) * 90));

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;
const row = (name: string, xs: number[]) => console.log(`| ${name} | ${xs.length} | ${Math.min(...xs).toFixed(4)} | ${q(xs, 0.01).toFixed(4)} | ${q(xs, 0.5).toFixed(4)} | ${Math.max(...xs).toFixed(4)} |`);

const e = await LocalEmbedder.load(found.dir, { model: 'bge-small-zh-v1.5', threads: 2 });
const cls = await e.embed(texts); // as an index run batches them
const alone: Float32Array[] = [];
for (const t of texts) alone.push((await e.embed([t]))[0] as Float32Array);
// Shuffled into other batch-mates (the integrity check's sample is a random handful).
const order = texts.map((_, i) => i).sort((a, b) => ((a * 7919) % 101) - ((b * 7919) % 101));
const shuffled = new Array<Float32Array>(texts.length);
for (let i = 0; i < order.length; i += 5) {
  const ids = order.slice(i, i + 5);
  const vs = await e.embed(ids.map((k) => texts[k] as string));
  ids.forEach((k, j) => (shuffled[k] = vs[j] as Float32Array));
}
const mean = await LocalEmbedder.load(found.dir, { model: 'bge-small-zh-v1.5', threads: 2, pooling: 'mean' });
const wrongPooling = await mean.embed(texts);

const sameText = (a: Float32Array[], b: Float32Array[]) => a.map((v, i) => cosine(v, b[i] as Float32Array));
const nearestOther = cls.map((v, i) => Math.max(...cls.map((w, j) => (i === j ? -1 : cosine(v, w)))));
console.log(`| cosine of a text's vector with … | texts | min | 1 % | median | max |`);
console.log('|---|---|---|---|---|---|');
row('itself, alone vs in an index batch', sameText(alone, cls));
row('itself, other batch-mates vs in an index batch', sameText(shuffled, cls));
row('itself, mean- instead of CLS-pooled (a wrong model setting)', sameText(wrongPooling, cls));
row('the nearest other text (a vector stored under the wrong chunk)', nearestOther);
await e.dispose();
await mean.dispose();
