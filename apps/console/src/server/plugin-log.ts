// The plugin's own log file, read for the Index page. The DSH host keeps plugin log lines only in
// memory, so the plugin appends them to `<dataDir>/logs/engram-plugin.log` (rotated to `.1`, `.2`;
// see apps/plugin/src/host/core/log-file.ts). Each line is `ISO-time LEVEL message`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PLUGIN_LOG = join('logs', 'engram-plugin.log');

export interface PluginLogLine {
  /** ISO time as written, '' when the line does not start with one. */
  time: string;
  /** info | warn | error (lower case); '' when unknown. */
  level: string;
  message: string;
}

export interface PluginLogTail {
  /** The file read (whether or not it exists). */
  file: string;
  exists: boolean;
  /** Newest last. */
  lines: PluginLogLine[];
}

const LINE = /^(\d{4}-\d{2}-\d{2}T[\d:.]+Z?)\s+([A-Z]+)\s+(.*)$/;

export function parsePluginLogLine(raw: string): PluginLogLine {
  const m = LINE.exec(raw);
  return m ? { time: m[1]!, level: m[2]!.toLowerCase(), message: m[3]! } : { time: '', level: '', message: raw };
}

const linesOf = (file: string): string[] => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : []);

/** The last `count` lines (the current file, and the newest rotated one when the current is short). */
export function tailPluginLog(dataDir: string, count: number): PluginLogTail {
  const file = join(dataDir, PLUGIN_LOG);
  const exists = existsSync(file) || existsSync(`${file}.1`);
  let lines = linesOf(file);
  if (lines.length < count) lines = [...linesOf(`${file}.1`), ...lines];
  return { file, exists, lines: lines.slice(-count).map(parsePluginLogLine) };
}
