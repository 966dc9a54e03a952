// Imports a module named only at run time (a file URL): Node's own import. The console's bundler
// must keep the expression as it is (webpackIgnore), and the compiled CLI, which runs as a script
// with a code cache and so has no import() of its own, replaces this module with the import its
// launcher hands it (scripts/build-cli.mjs, bin/engram.js).
export const importAtRunTime = (url: string): Promise<unknown> => import(/* webpackIgnore: true */ url);
