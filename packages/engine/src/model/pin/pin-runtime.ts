// Pin-time tool (run by a maintainer when RUNTIME_PACKAGE changes, never by users): writes
// ../runtime-pin.ts, which lets the installer fetch one platform's ONNX runtime out of the
// all-platform onnxruntime-node tarball with HTTP Range requests instead of downloading all of it.
//
// For each platform it records byte ranges of the gzip stream that hold that platform's files, each
// starting at a deflate block boundary, with the 32 KiB of uncompressed data before it (the
// deflate window, compressed) so decompression can start there, and every file's SHA-256.
//
//   npm pack onnxruntime-node@<version>                       (its integrity must equal the registry's)
//   cc -O2 -o /tmp/deflate-blocks deflate-blocks.c -lz && /tmp/deflate-blocks onnxruntime-node-<v>.tgz > blocks.txt
//   npx tsx pin-runtime.ts onnxruntime-node-<v>.tgz blocks.txt > ../runtime-pin.ts
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { deflateRawSync, gunzipSync } from 'node:zlib';
import { DEFLATE_WINDOW, filesOfRange, inflateRange, type PinnedRange } from '../runtime-fetch.ts';

const [tgzPath, blocksPath] = process.argv.slice(2);
if (!tgzPath || !blocksPath) throw new Error('usage: pin-runtime.ts TARBALL.tgz BLOCKS.txt');
const gz = readFileSync(tgzPath);
const tar = gunzipSync(gz);
/** Ranges closer than this (compressed bytes) are fetched as one. */
const MERGE_GAP = 256 * 1024;

interface Entry { path: string; header: number; data: number; size: number }
const entries: Entry[] = [];
for (let at = 0; at + 512 <= tar.length; ) {
  const h = tar.subarray(at, at + 512);
  if (h.every((b) => b === 0)) break;
  const name = h.subarray(0, 100).toString('utf8').replace(/\0[\s\S]*$/, '');
  const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0[\s\S]*$/, '').trim() || '0', 8);
  entries.push({ path: name, header: at, data: at + 512, size });
  at += 512 + Math.ceil(size / 512) * 512;
}
const blocks = readFileSync(blocksPath, 'utf8').trim().split('\n').map((l) => l.split(' ').map(Number)).map(([i, b, o]) => ({ i: i as number, bits: b as number, out: o as number }));

/** What the runtime needs of onnxruntime-node on one platform. */
const wanted = (p: string, os: string, cpu: string) => p === 'package/package.json' || /^package\/dist\/[^/]+\.js$/.test(p) || p.startsWith(`package/bin/napi-v6/${os}/${cpu}/`);
const platforms = [...new Set(entries.map((e) => /^package\/bin\/napi-v6\/([^/]+)\/([^/]+)\//.exec(e.path)).filter(Boolean).map((m) => `${m![1]}-${m![2]}`))].sort();

/**
 * The window before a range with every byte its first blocks do not refer to set to zero (it then
 * compresses to almost nothing): the shortest suffix that still decompresses the first 64 KiB right
 * (only output within 32 KiB of the start can reach into the window).
 */
function neededWindow(r: { from: number; to: number; out: number }): Buffer {
  const full = tar.subarray(Math.max(0, r.out - DEFLATE_WINDOW), r.out);
  const probe = gz.subarray(r.from, Math.min(r.to + 1, r.from + 256 * 1024));
  const expected = tar.subarray(r.out, r.out + 65_536);
  const works = (keep: number) => {
    const w = Buffer.concat([Buffer.alloc(DEFLATE_WINDOW - keep), full.subarray(full.length - keep)]);
    try {
      const got = inflateRange(probe, { window: '' }, w).subarray(0, expected.length);
      return got.equals(expected);
    } catch {
      return false;
    }
  };
  let lo = 0;
  let hi = full.length;
  if (!works(hi)) throw new Error(`range at ${r.from} does not decompress even with the full window`);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (works(mid)) hi = mid;
    else lo = mid + 1;
  }
  // The search assumes that a window working for the first 64 KiB works for all; every range is checked whole below.
  return Buffer.concat([Buffer.alloc(DEFLATE_WINDOW - hi), full.subarray(full.length - hi)]);
}

const out: Record<string, unknown> = {};
for (const platform of platforms) {
  const [os, cpu] = platform.split('-') as [string, string];
  const need = entries.filter((e) => wanted(e.path, os, cpu)).sort((a, b) => a.header - b.header);
  const ranges: { from: number; to: number; out: number; files: Entry[] }[] = [];
  for (const e of need) {
    // Only blocks that start on a byte: shifting the stream to enter mid-byte would misalign any stored block after it.
    const start = blocks.filter((b) => b.out <= e.header && b.bits === 0).pop() as (typeof blocks)[number];
    const end = blocks.find((b) => b.out >= e.data + e.size);
    const r = { from: start.i, to: end ? end.i - 1 : gz.length - 1, out: start.out, files: [e] };
    const last = ranges.at(-1);
    if (last && r.from - last.to < MERGE_GAP) {
      last.to = Math.max(last.to, r.to);
      last.files.push(e);
    } else ranges.push(r);
  }
  out[platform] = ranges.map((r) => ({
    from: r.from,
    to: r.to,
    out: r.out,
    window: deflateRawSync(neededWindow(r), { level: 9 }).toString('base64'),
    files: r.files.map((f) => ({ path: f.path.replace(/^package\//, ''), offset: f.data, bytes: f.size, sha256: createHash('sha256').update(tar.subarray(f.data, f.data + f.size)).digest('hex') })),
  }));
}
// Every range, as the installer will fetch it, must give its files with their hashes.
for (const [platform, ranges] of Object.entries(out) as [string, PinnedRange[]][]) {
  for (const r of ranges) {
    try {
      filesOfRange(r, inflateRange(gz.subarray(r.from, r.to + 1), r));
    } catch (e) {
      throw new Error(`${platform} range ${r.from}-${r.to} (${r.files.map((f) => f.path).join(', ')}): ${(e as Error).message}`);
    }
  }
}
const pkg = JSON.parse(tar.subarray(entries.find((e) => e.path === 'package/package.json')!.data).subarray(0, entries.find((e) => e.path === 'package/package.json')!.size).toString('utf8')) as { name: string; version: string };
const integrity = `sha512-${createHash('sha512').update(gz).digest('base64')}`;
process.stdout.write(`// Generated by model/pin/pin-runtime.ts from ${pkg.name}@${pkg.version} (${gz.length} bytes, ${integrity}). Do not edit.
// Per platform: byte ranges of the tarball's gzip stream, each starting at a deflate block boundary
// on byte \`from\` that produces uncompressed byte \`out\` first, with the deflate window before it
// (raw deflate, base64) and the SHA-256 of every file it holds.
import type { RuntimePin } from './runtime-fetch.ts';

export const ONNXRUNTIME_NODE_PIN: RuntimePin = ${JSON.stringify({ name: pkg.name, version: pkg.version, integrity, bytes: gz.length, platforms: out }, null, 1)};
`);
