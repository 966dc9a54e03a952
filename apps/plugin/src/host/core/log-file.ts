// The plugin's own log file. The host's web profile keeps plugin log lines only in memory, so the
// plugin also appends its lines (one per recall, plus warnings and errors) to
// <dataDir>/logs/engram-plugin.log, rotated by size: engram-plugin.log → .1 → .2 (older ones go);
// no file passes the cap, a single over-long line is cut to fit.
// Writing never throws into the conversation: a failing disk turns the file off, with one note in
// the host log. Lines written before the data directory is known are kept (up to a cap) and flushed.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HostLogger } from './host-types.ts';

export const LOG_FILE_NAME = 'engram-plugin.log';
export const LOG_DIR_NAME = 'logs';
const EARLY_CAP = 200;

export interface RotatingLogOptions {
  /** Rotate when the file would grow past this many bytes (default 1 MiB). */
  maxBytes?: number;
  /** Rotated files kept besides the current one (default 2). */
  keep?: number;
  now?: () => Date;
}

export class RotatingLog {
  private file: string | null = null;
  private early: string[] = [];
  private failed: string | null = null;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => Date;

  constructor(options: RotatingLogOptions = {}) {
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.keep = options.keep ?? 2;
    this.now = options.now ?? (() => new Date());
  }

  get path(): string | null {
    return this.file;
  }

  get failure(): string | null {
    return this.failed;
  }

  /** Starts writing under `<dataDir>/logs/`; returns the failure message when the folder cannot be made. */
  open(dataDir: string): string | null {
    try {
      const dir = join(dataDir, LOG_DIR_NAME);
      mkdirSync(dir, { recursive: true });
      this.file = join(dir, LOG_FILE_NAME);
      const pending = this.early;
      this.early = [];
      for (const line of pending) this.write(line);
      return null;
    } catch (error) {
      this.failed = error instanceof Error ? error.message : String(error);
      return this.failed;
    }
  }

  append(level: string, message: string): void {
    const line = `${this.now().toISOString()} ${level.toUpperCase()} ${message.replace(/\r?\n/g, ' ⏎ ')}\n`;
    if (this.file === null) {
      if (this.failed === null && this.early.length < EARLY_CAP) this.early.push(line);
      return;
    }
    this.write(line);
  }

  /** The last `count` lines, newest last (reads the current file and, if needed, the last rotated one). */
  tail(count: number): string[] {
    if (this.file === null) return this.early.slice(-count).map((l) => l.trimEnd());
    const read = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : []);
    let lines = read(this.file);
    if (lines.length < count) lines = [...read(`${this.file}.1`), ...lines];
    return lines.slice(-count);
  }

  private write(whole: string): void {
    if (this.file === null || this.failed !== null) return;
    const line = fitLine(whole, this.maxBytes);
    try {
      const size = existsSync(this.file) ? statSync(this.file).size : 0;
      if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) this.rotate(this.file);
      appendFileSync(this.file, line, 'utf8');
    } catch (error) {
      this.failed = error instanceof Error ? error.message : String(error);
    }
  }

  private rotate(file: string): void {
    rmSync(`${file}.${this.keep}`, { force: true });
    for (let n = this.keep - 1; n >= 1; n--) if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    if (this.keep >= 1) renameSync(file, `${file}.1`);
    else rmSync(file, { force: true });
  }
}

const CUT_MARK = '… (cut)\n';

/**
 * A line that alone would pass the cap (a huge error text) is cut to fit it, on a character
 * boundary and marked: otherwise it would be written whole into a fresh file and the cap would not hold.
 */
export function fitLine(line: string, maxBytes: number): string {
  if (Buffer.byteLength(line) <= maxBytes) return line;
  const room = maxBytes - Buffer.byteLength(CUT_MARK);
  let kept = '';
  let used = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (used + size > room) break;
    kept += char;
    used += size;
  }
  return `${kept}${CUT_MARK}`;
}

/** The host logger, with every info/warn/error line also appended to the file (debug stays in the host). */
export function teeLogger(host: HostLogger, file: RotatingLog): HostLogger {
  const text = (message: unknown, args: unknown[]) => [message, ...args].map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  return {
    debug: (message, ...args) => host.debug(message, ...args),
    info: (message, ...args) => {
      host.info(message, ...args);
      file.append('info', text(message, args));
    },
    warn: (message, ...args) => {
      host.warn(message, ...args);
      file.append('warn', text(message, args));
    },
    error: (message, ...args) => {
      host.error(message, ...args);
      file.append('error', text(message, args));
    },
  };
}
