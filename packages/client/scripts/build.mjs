#!/usr/bin/env node
// Builds what `npm pack` ships: dist/index.js (the client, bundled; @trpc/client stays a dependency)
// and dist/types (declarations of the client and of the console's AppRouter with the engine/db types
// it names). Workspace package names in the declarations become relative paths, because a script
// outside this repo has no @engram/engine or @engram/db to resolve them with.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = join(pkgDir, '../..');
const dist = join(pkgDir, 'dist');
const types = join(dist, 'types');

rmSync(dist, { recursive: true, force: true });

const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(pkgDir, 'tsconfig.build-types.json')], {
  stdio: 'inherit',
});
if (tsc.status !== 0) throw new Error(`tsc (declarations) failed with ${tsc.status}`);

const workspaceEntries = {
  '@engram/engine': join(types, 'packages/engine/src/index.ts'),
  '@engram/db': join(types, 'packages/db/src/index.ts'),
};
function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (name.endsWith('.d.ts')) yield full;
  }
}
let rewritten = 0;
for (const file of walk(types)) {
  const before = readFileSync(file, 'utf8');
  const after = before.replace(/(from\s*|import\()(['"])(@engram\/(?:engine|db))\2/g, (_m, lead, q, name) => {
    let rel = relative(dirname(file), workspaceEntries[name]);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return `${lead}${q}${rel}${q}`;
  });
  if (after !== before) {
    writeFileSync(file, after);
    rewritten++;
  }
}

await build({
  entryPoints: [join(pkgDir, 'src/index.ts')],
  outfile: join(dist, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['@trpc/client', '@trpc/server'],
  logLevel: 'warning',
});
console.log(`@engram/client: dist/index.js and ${rewritten} declaration files with workspace imports made relative`);
