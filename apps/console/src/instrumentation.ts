// Opens the engine as soon as the server starts (without delaying readiness), so the first page load
// does not also pay for opening the database and loading the tokenizer dictionary.
export function register(): void {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  void import('./server/engine.ts')
    .then((m) => m.getRuntime())
    .catch(() => {
      // The page and the API report why the engine cannot open; nothing to add here.
    });
}
