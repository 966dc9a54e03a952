/** A failure the caller can act on: `code` is stable for scripts, `message` is for people. */
export class EngramError extends Error {
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'EngramError';
    this.code = code;
    this.details = details;
  }
}

export const isEngramError = (e: unknown): e is EngramError => e instanceof EngramError;

export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));
