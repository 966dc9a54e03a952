// A minimal reader for the tar archives npm produces (ustar, with pax or GNU long names): the
// files under one folder, as buffers. Pure; no extraction to disk, so no path can escape anywhere.

export interface TarEntry {
  path: string;
  data: Buffer;
}

const BLOCK = 512;

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  const s = field(header, start, length).trim();
  return s ? parseInt(s, 8) : 0;
}

function paxPath(data: Buffer): string | null {
  // Records: "<len> key=value\n"
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const len = Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isFinite(len) || len <= 0) break;
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0 && record.slice(0, eq) === 'path') return record.slice(eq + 1);
    at += len;
  }
  return null;
}

/** Regular files of the archive whose path starts with `folder`, with that prefix removed. */
export function readTar(archive: Buffer, folder: string): TarEntry[] {
  const out: TarEntry[] = [];
  let at = 0;
  let longName: string | null = null;
  while (at + BLOCK <= archive.length) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] ?? 0x30);
    const body = archive.subarray(at + BLOCK, at + BLOCK + size);
    if (body.length < size) throw new Error('truncated tar archive');
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = paxPath(body) ?? longName;
      continue;
    }
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const magic = field(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? field(header, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = null;
    if (type !== '0' && type !== '\0') continue;
    if (!name.startsWith(folder)) continue;
    const rel = name.slice(folder.length);
    if (!rel || rel.split('/').some((p) => p === '..' || p === '')) continue;
    out.push({ path: rel, data: Buffer.from(body) });
  }
  return out;
}
