// The console may be built for a base path (the plugin's proxy mode serves it under /engram/console);
// Next prefixes pages and assets itself, but not the console's own fetches.
export const BASE_PATH = process.env.NEXT_PUBLIC_ENGRAM_BASE_PATH ?? '';

/** An API path as the browser must request it under the build's base path. */
export const apiPath = (path: string): string => `${BASE_PATH}${path}`;
