// What the server's log keeps when an MCP call fails. The client is told in the words of
// errors.ts clientFailure: an EngramError as it is, anything else in fixed words under a stable code
// (a locked or unreachable database under the engine's own codes for them, so a program knows to try
// again later). The engine's log gets the whole of the latter, with the secrets the engine holds masked.
import { getPath } from '../config/merge.ts';
import { secretPaths } from '../config/schema.ts';
import type { Engine } from '../engine.ts';
import { errorMessage, isEngramError, rootReason } from '../errors.ts';
import { redact } from '../semantic/embedding-fault.ts';

/** The password and query values of a URL (libSQL takes `?authToken=…` in the URL itself). */
function urlCredentials(url: string): string[] {
  try {
    const u = new URL(url);
    return [decodeURIComponent(u.password), ...u.searchParams.values()].filter((v) => v !== '');
  } catch {
    return [];
  }
}

/** The secrets an engine holds: its API keys and database token, and credentials in the database URL. */
export function engineSecrets(engine: Engine): string[] {
  try {
    const configured = secretPaths.map((path) => getPath(engine.config, path)).filter((v): v is string => typeof v === 'string' && v !== '');
    return [...configured, ...urlCredentials(engine.database.url)];
  } catch {
    // The settings themselves failing is then the error being logged: there is nothing to mask from them.
    return [];
  }
}

/**
 * Logs a failure whose cause the client was not told (anything but an EngramError): what failed and
 * the whole error — message, innermost cause, stack — with the engine's secrets and `alsoSecret`
 * (the install token) masked.
 */
export function logInternalFailure(engine: Engine, what: string, e: unknown, alsoSecret: readonly string[] = []): void {
  if (isEngramError(e)) return;
  const secrets = [...alsoSecret, ...engineSecrets(engine)];
  const mask = (text: string) => redact(text, secrets);
  const message = errorMessage(e);
  const cause = rootReason(e);
  const code = (e as { code?: unknown } | null)?.code;
  engine.log('error', `mcp: ${what} failed`, {
    error: mask(message),
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(cause !== message ? { cause: mask(cause) } : {}),
    ...(e instanceof Error && e.stack ? { stack: mask(e.stack) } : {}),
  });
}
