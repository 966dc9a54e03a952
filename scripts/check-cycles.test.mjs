// Tests of scripts/check-cycles.mjs on small repositories made for each case, run as a user runs it
// (a child process, its exit code and output). Run: node --test scripts/check-cycles.test.mjs
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-cycles.mjs');

function repo(files) {
  const root = mkdtempSync(join(tmpdir(), 'engram-cycles-'));
  const all = { 'package.json': JSON.stringify({ workspaces: ['packages/*', 'apps/web'] }), ...files };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), typeof text === 'string' ? text : JSON.stringify(text));
  }
  return root;
}

const check = (root, ...args) => {
  const r = spawnSync(process.execPath, [script, '--root', root, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout + r.stderr };
};

const pkgA = { name: '@t/a', exports: { '.': './src/index.ts', './x': './src/x.ts' } };
const pkgWeb = { name: '@t/web', exports: './src/main.ts' };

test('a cycle through extensionless, .ts, .js and workspace-package imports is found, listed, and fails the check', () => {
  const root = repo({
    'packages/a/package.json': pkgA,
    'packages/a/src/index.ts': `export { x } from './x.ts';\n`,
    'packages/a/src/x.ts': `import { y } from './y';\nexport const x = y;\n`,
    'packages/a/src/y.ts': `import { main } from '@t/web';\nexport const y = main;\n`,
    'apps/web/package.json': pkgWeb,
    'apps/web/src/main.ts': `import { z } from './z.js';\nexport const main = z;\n`,
    'apps/web/src/z.ts': `import { x } from '@t/a/x';\nexport const z = () => x;\n`,
  });
  const r = check(root);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /1 import cycle/);
  assert.match(r.out, /apps\/web\/src\/main\.ts -> apps\/web\/src\/z\.ts -> packages\/a\/src\/x\.ts -> packages\/a\/src\/y\.ts -> apps\/web\/src\/main\.ts/);
  assert.doesNotMatch(r.out, /index\.ts/, 'index.ts imports into the cycle but is not part of it');
});

test('type-only edges count, are marked, and --runtime leaves them out', () => {
  const root = repo({
    'packages/a/package.json': pkgA,
    'packages/a/src/index.ts': `import { helper } from './helper.ts';\nexport interface Shape { n: number }\nexport const run = helper;\n`,
    'packages/a/src/helper.ts': `import type { Shape } from './index.ts';\nexport const helper = (s: Shape) => s.n;\n`,
    'packages/a/src/other.ts': `import { type Shape } from './index.ts';\nexport { type Shape as S } from './index.ts';\nexport const f = (s: Shape) => s;\n`,
  });
  const all = check(root);
  assert.equal(all.code, 1, all.out);
  assert.match(all.out, /packages\/a\/src\/helper\.ts -\(type\)-> packages\/a\/src\/index\.ts -> packages\/a\/src\/helper\.ts/);
  const runtime = check(root, '--runtime');
  assert.equal(runtime.code, 0, runtime.out);
  assert.match(runtime.out, /no import cycles/);
});

test('a value import next to a type import of the same module is a value edge', () => {
  const root = repo({
    'packages/a/package.json': pkgA,
    'packages/a/src/index.ts': `import { helper } from './helper.ts';\nexport const run = helper;\nexport const n = 1;\n`,
    'packages/a/src/helper.ts': `import type { run } from './index.ts';\nimport { n } from './index.ts';\nexport const helper = (): typeof run | number => n;\n`,
  });
  assert.equal(check(root, '--runtime').code, 1);
});

test('no cycle passes; dynamic import(), npm and node: modules are not edges; build folders are not read', () => {
  const root = repo({
    'packages/a/package.json': pkgA,
    'packages/a/src/index.ts': `import { readFileSync } from 'node:fs';\nimport { z } from 'zod';\nexport const load = () => import('./late.ts');\nexport const r = [readFileSync, z];\n`,
    'packages/a/src/late.ts': `import { r } from './index.ts';\nexport const late = r;\n`,
    'apps/web/package.json': pkgWeb,
    'apps/web/src/main.ts': `import { load } from '@t/a';\nexport const main = load;\n`,
    'apps/web/.next/server/chunk.ts': `import './chunk.ts';\n`,
    'apps/web/node_modules/dep/index.ts': `import './index.ts';\n`,
  });
  const r = check(root);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /no import cycles \(3 files, 2 internal imports/);
});

test('a file importing itself is a cycle; every loop of a knot is listed once', () => {
  const root = repo({
    'packages/a/package.json': pkgA,
    'packages/a/src/self.ts': `import './self.ts';\n`,
    'packages/a/src/p.ts': `import './q.ts';\nimport './r.ts';\n`,
    'packages/a/src/q.ts': `import './p.ts';\n`,
    'packages/a/src/r.ts': `import './p.ts';\n`,
  });
  const r = check(root, '--json');
  assert.equal(r.code, 1);
  const { cycles } = JSON.parse(r.out);
  const loops = cycles.map((c) => c.loops.map((l) => l.map((s) => s.file.replace('packages/a/src/', '')).join('>')));
  assert.deepEqual(loops, [['p.ts>q.ts', 'p.ts>r.ts'], ['self.ts']]);
});

test('a domain module of the engine importing the facade fails the check; index.ts and the CLI may', () => {
  const files = {
    'packages/engine/package.json': { name: '@t/engine', exports: { '.': './src/index.ts' } },
    'packages/engine/src/index.ts': `export { Engine } from './engine.ts';\n`,
    'packages/engine/src/engine.ts': `import { list } from './memories/service.ts';\nexport class Engine { list = list; }\n`,
    'packages/engine/src/memories/service.ts': `export const list = () => [];\n`,
    'packages/engine/src/cli/main.ts': `import type { Engine } from '../engine.ts';\nexport const run = (e: Engine) => e;\n`,
  };
  const clean = check(repo(files));
  assert.equal(clean.code, 0, clean.out);
  const bad = check(repo({ ...files, 'packages/engine/src/workspace/registry.ts': `import type { Engine } from '../engine.ts';\nexport type W = Pick<Engine, 'list'>;\n` }));
  assert.equal(bad.code, 1, bad.out);
  assert.match(bad.out, /forbidden import: packages\/engine\/src\/workspace\/registry\.ts -> packages\/engine\/src\/engine\.ts/);
  assert.match(bad.out, /no import cycles/, 'no cycle: the failure is the layering rule alone');
});
