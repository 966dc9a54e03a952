#!/usr/bin/env node
// Runs every test file in the repository with node's test runner (unit, integration and browser
// end-to-end alike) and ends with one plain `N passed, N failed` line that CI reads.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const roots = ['packages', 'apps', 'e2e'];
const skip = new Set(['node_modules', '.next', 'dist', 'artifacts']);
const only = process.argv.slice(2);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

let files = roots.flatMap((r) => {
  try { return walk(join(root, r), []); } catch { return []; }
}).sort();
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0' },
});
let passed = 0;
let failed = 0;
let skipped = 0;
let buffer = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffer += chunk.toString();
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const m = /^(?:ℹ|#) (pass|fail|skipped) (\d+)$/.exec(line.trim());
    if (m) {
      if (m[1] === 'pass') passed = Number(m[2]);
      else if (m[1] === 'fail') failed = Number(m[2]);
      else skipped = Number(m[2]);
    }
  }
});
child.on('close', (code) => {
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code === 0 && failed === 0 ? 0 : 1);
});
