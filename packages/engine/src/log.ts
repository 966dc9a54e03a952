export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type Logger = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;

/** Logs to stderr as one JSON line per event; secrets never reach here (callers pass masked data). */
export const stderrLogger =
  (minLevel: LogLevel = 'info'): Logger =>
  (level, message, data) => {
    const order = { debug: 0, info: 1, warn: 2, error: 3 };
    if (order[level] < order[minLevel]) return;
    process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), level, message, ...data })}\n`);
  };

export const silentLogger: Logger = () => {};
