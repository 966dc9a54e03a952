// Resumable HTTP download into a file: an interrupted transfer leaves `<file>` with what arrived, and
// the next call asks the server only for the rest (HTTP Range). Works for a whole file or for one byte
// range of it (the installer takes single platforms' binaries out of a larger tarball this way).
// Nothing here trusts the bytes: callers check hashes afterwards.
import { createWriteStream, statSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface DownloadOptions {
  fetchImpl?: typeof fetch;
  signal?: AbortSignal;
  /** Bytes that arrived so far in this call (not counting what the file already held), and the bytes this call expects. */
  onBytes?: (done: number, total: number) => void;
  /** Inclusive byte range of the remote file; absent = the whole file. */
  range?: { from: number; to: number };
}

export interface DownloadResult {
  /** Bytes received over the network by this call. */
  downloaded: number;
  /** Bytes the file holds now. */
  size: number;
  /** The file already held part of it: only the rest was asked for. */
  resumed: boolean;
}

/** The server answered a range request with the whole file: the caller must take another route. */
export class RangeUnsupportedError extends Error {
  override name = 'RangeUnsupportedError';
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** The Range header for what is still missing; null when the whole file is wanted from the start. Pure. */
export function missingRange(have: number, range?: { from: number; to: number }): string | null {
  if (range) return `bytes=${range.from + have}-${range.to}`;
  return have > 0 ? `bytes=${have}-` : null;
}

export async function downloadResumable(url: string, file: string, opts: DownloadOptions = {}): Promise<DownloadResult> {
  await mkdir(dirname(file), { recursive: true });
  let have = sizeOf(file);
  const want = opts.range ? opts.range.to - opts.range.from + 1 : null;
  if (want !== null && have > want) {
    await rm(file, { force: true });
    have = 0;
  }
  if (want !== null && have === want) return { downloaded: 0, size: have, resumed: true };
  const header = missingRange(have, opts.range);
  const res = await (opts.fetchImpl ?? fetch)(url, { signal: opts.signal, redirect: 'follow', headers: header ? { range: header } : {} });
  if (res.status === 416 && !opts.range && have > 0) {
    // Nothing left to send: the file is complete (the hash check decides).
    await res.body?.cancel().catch(() => undefined);
    return { downloaded: 0, size: have, resumed: true };
  }
  if (!res.ok || !res.body) throw new Error(`GET ${url}: HTTP ${res.status}`);
  const append = res.status === 206;
  if (!append && opts.range) {
    await res.body.cancel().catch(() => undefined);
    throw new RangeUnsupportedError(`${new URL(url).host} ignored the byte range`);
  }
  // A 200 to a resume request is the whole file again: start over.
  if (!append) have = 0;
  const total = Number(res.headers.get('content-length') ?? 0);
  const out = createWriteStream(file, { flags: append ? 'a' : 'w' });
  const closed = new Promise<void>((ok, fail) => {
    out.on('close', ok);
    out.on('error', fail);
  });
  let downloaded = 0;
  try {
    const reader = res.body.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      downloaded += value.length;
      if (!out.write(value)) await new Promise<void>((ok) => out.once('drain', ok));
      opts.onBytes?.(downloaded, total);
    }
  } finally {
    out.end();
    await closed;
  }
  return { downloaded, size: have + downloaded, resumed: append };
}
