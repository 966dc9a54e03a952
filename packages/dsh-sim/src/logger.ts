// Log capture: every line a plugin logs lands in `host.logs`, so tests can assert on what the
// plugin reported (a pipeline that silently logs "0 hits" is a failure you can only see here).
import { format } from 'node:util';
import type { LogLine } from './types.ts';

export interface Logger {
  info(message: unknown, ...args: unknown[]): void;
  warn(message: unknown, ...args: unknown[]): void;
  error(message: unknown, ...args: unknown[]): void;
  debug(message: unknown, ...args: unknown[]): void;
  success(message: unknown, ...args: unknown[]): void;
}

/** cordis style: `ctx.logger('name')` returns a logger, and `ctx.logger.warn(...)` logs under the plugin's name. */
export type LoggerFactory = ((name: string) => Logger) & Logger;

export function createLogger(name: string, sink: LogLine[], now: () => number, echo: boolean): Logger {
  const line = (level: LogLine['level']) => (message: unknown, ...args: unknown[]) => {
    const text = format(message, ...args);
    sink.push({ name, level, message: text, time: now() });
    if (echo) console.error(`[${level}] ${name}: ${text}`);
  };
  return { info: line('info'), warn: line('warn'), error: line('error'), debug: line('debug'), success: line('success') };
}

export function createLoggerFactory(defaultName: string, sink: LogLine[], now: () => number, echo: boolean): LoggerFactory {
  const factory = ((name: string) => createLogger(name, sink, now, echo)) as LoggerFactory;
  Object.assign(factory, createLogger(defaultName, sink, now, echo));
  return factory;
}
