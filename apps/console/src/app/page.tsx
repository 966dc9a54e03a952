// The console's only page. Rendered per request, it carries no write key (the proxy sets the
// browser's HttpOnly session cookie with it), and says plainly why when the engine cannot open.
import { ConsoleApp } from '../components/ConsoleApp.tsx';
import { getRuntime } from '../server/engine.ts';
import { isEngineError } from '../server/errors.ts';

export const dynamic = 'force-dynamic';

export default async function Page() {
  try {
    await getRuntime();
  } catch (e) {
    if (!isEngineError(e)) console.error('[engram-console] engine failed to open', e);
    const message = isEngineError(e) ? `${e.message} (${e.code})` : 'The engine could not open — see the console server log.';
    return (
      <main className="mx-auto max-w-xl p-8" data-testid="engine-error">
        <h1 className="text-lg font-semibold">Engram</h1>
        <p className="mt-2 rounded-lg border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger">{message}</p>
        <p className="mt-3 text-sm text-muted">ENGRAM_DIARY_DIR · ENGRAM_DATA_DIR · ENGRAM_CONFIG</p>
      </main>
    );
  }
  return <ConsoleApp />;
}
