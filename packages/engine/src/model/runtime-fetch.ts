// Takes one platform's files out of a pinned npm tarball without downloading the rest of it.
// onnxruntime-node ships every platform's binaries in one 113 MB tarball; this machine needs one
// platform's (~18 MB compressed on linux-x64). A gzip stream cannot be entered in the middle on its
// own, but it can at a deflate block boundary given the 32 KiB of output before it (the window):
// the pin (runtime-pin.ts, made by pin/pin-runtime.ts from the integrity-checked tarball) records,
// per platform, the byte ranges holding its files, where each starts, its window, and every file's
// SHA-256, which is what makes the partial download trustworthy. Pure apart from nothing: the
// fetching is the caller's (runtime.ts).
import { createHash } from 'node:crypto';
import { constants, inflateRawSync } from 'node:zlib';

export interface PinnedRangeFile {
  /** Path inside the package (`bin/napi-v6/linux/x64/libonnxruntime.so.1`). */
  path: string;
  /** Where the file's bytes start in the uncompressed tar stream. */
  offset: number;
  bytes: number;
  sha256: string;
}

export interface PinnedRange {
  /** Inclusive byte range of the tarball to fetch; a deflate block starts on byte `from`. */
  from: number;
  to: number;
  /** The uncompressed offset the block starts at. */
  out: number;
  /** The 32 KiB before `out` (bytes no block in the range refers to are zero), raw deflate, base64. */
  window: string;
  files: PinnedRangeFile[];
}

export interface RuntimePin {
  name: string;
  version: string;
  /** The registry's integrity of the whole tarball (checked against the registry before any range is fetched). */
  integrity: string;
  bytes: number;
  /** `<platform>-<arch>` → the ranges holding that platform's files. */
  platforms: Record<string, PinnedRange[]>;
}

export const DEFLATE_WINDOW = 32_768;

/** The window a range decompresses against, always DEFLATE_WINDOW bytes (shorter windows are zero-filled in front). */
export function windowOf(range: Pick<PinnedRange, 'window'>): Buffer {
  const w = inflateRawSync(Buffer.from(range.window, 'base64'));
  if (w.length >= DEFLATE_WINDOW) return w.subarray(w.length - DEFLATE_WINDOW);
  return Buffer.concat([Buffer.alloc(DEFLATE_WINDOW - w.length), w]);
}

/** The uncompressed bytes a fetched range holds, from `range.out` on. */
export function inflateRange(compressed: Uint8Array, range: Pick<PinnedRange, 'window'>, window = windowOf(range)): Buffer {
  return inflateRawSync(compressed, { dictionary: window, finishFlush: constants.Z_SYNC_FLUSH });
}

/** The range's files, each checked against its pinned SHA-256; throws naming the first that differs. */
export function filesOfRange(range: PinnedRange, uncompressed: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const f of range.files) {
    const data = uncompressed.subarray(f.offset - range.out, f.offset - range.out + f.bytes);
    const hash = createHash('sha256').update(data).digest('hex');
    if (data.length !== f.bytes || hash !== f.sha256) throw new Error(`${f.path}: SHA-256 ${hash.slice(0, 12)}… (${data.length} bytes), pinned ${f.sha256.slice(0, 12)}… (${f.bytes} bytes)`);
    files.set(f.path, Buffer.from(data));
  }
  return files;
}

/** Bytes a platform's ranges take to download. */
export const rangeBytes = (ranges: PinnedRange[]) => ranges.reduce((n, r) => n + r.to - r.from + 1, 0);
