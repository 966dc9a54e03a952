import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTokenizer } from '../src/text/tokenize.ts';
import { lazyBundledJieba } from '../src/text/jieba.ts';
const dir = process.argv[2]!;
const files = readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.txt')).sort();
const texts = files.map((f) => readFileSync(join(dir, f), 'utf8'));
const tok = createTokenizer({ kind: 'jieba' });
tok.prepare!(texts, 'bulk');
const lz = lazyBundledJieba(); if (!lz.ok) throw 0;
const jieba = lz.jieba.segmenterFor('x');
let calls = 0, chars = 0, outs = 0, tcut = 0;
const orig = jieba.cut.bind(jieba);
(jieba as any).cut = (t: string, h: boolean) => { calls++; chars += t.length; const a = performance.now(); const r = orig(t, h); tcut += performance.now() - a; outs += r.length; return r; };
for (let rep = 0; rep < 2; rep++) {
  calls = chars = outs = tcut = 0;
  let t0 = performance.now();
  for (const t of texts) tok.tokenize(t);
  const tall = performance.now() - t0;
  console.log('engine tokenize', { calls, chars, outs, tcut: tcut.toFixed(0), tall: tall.toFixed(0) });
  calls = chars = outs = tcut = 0;
  t0 = performance.now();
  for (const t of texts) { const nl = t.indexOf('\n'); jieba.cut(t.slice(0, nl), false); jieba.cut(t.slice(nl + 1), false); }
  console.log('peer cut', { calls, chars, outs, tcut: tcut.toFixed(0) });
}
