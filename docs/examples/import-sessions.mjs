#!/usr/bin/env node
// Imports a project's past DSH sessions as memories of its workspace through the Engram console's
// HTTP API (plain fetch, no packages): register the folder, list its sessions, import the new and
// changed ones as a background job, poll it to the end.
//
//   node docs/examples/import-sessions.mjs /home/me/project             # import
//   node docs/examples/import-sessions.mjs /home/me/project --dry-run   # only list what would be imported
//
// ENGRAM_CONSOLE_URL (default http://127.0.0.1:3000) says where the console runs; the token for writes
// is read from <ENGRAM_DATA_DIR or ~/.engram>/console-token. The console reads the session logs from
// its `sessions.dshHome` setting, else $DSH_HOME, else ~/.dsh (its own environment, not this script's).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const base = (process.env.ENGRAM_CONSOLE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const dataDir = process.env.ENGRAM_DATA_DIR || join(homedir(), '.engram');
const args = process.argv.slice(2);
const folder = args.find((a) => !a.startsWith('--'));
if (!folder) {
  console.error('usage: import-sessions.mjs <project folder> [--dry-run]');
  process.exit(2);
}

async function query(path, input) {
  const url = `${base}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  return unwrap(path, await fetch(url));
}

async function mutate(path, input) {
  const token = readFileSync(join(dataDir, 'console-token'), 'utf8').trim();
  const res = await fetch(`${base}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-token': token },
    body: JSON.stringify(input),
  });
  return unwrap(path, res);
}

async function unwrap(path, res) {
  const body = await res.json();
  if (body.error) {
    const { code, engramCode } = body.error.data ?? {};
    throw new Error(`${path}: ${code}${engramCode ? `/${engramCode}` : ''}: ${body.error.message}`);
  }
  return body.result.data;
}

const ws = await mutate('workspaces.register', { path: resolve(folder) });
console.log(`workspace ${ws.id} (${ws.name}): ${ws.decision.kind}`);

const { home, sessions } = await query('sessions.list', { workspace: ws.id });
console.log(`${sessions.length} past sessions under ${home}`);
for (const s of sessions) console.log(`  ${s.status.padEnd(9)} ${s.id.slice(0, 8)}  ${s.turns} turns  ${s.title}`);

const ids = sessions.filter((s) => s.status === 'new' || s.status === 'changed').map((s) => s.id);
if (ids.length === 0 || args.includes('--dry-run')) {
  console.log(ids.length === 0 ? 'nothing to import' : `would import ${ids.length}`);
  process.exit(0);
}

let job = await mutate('sessions.import', { workspace: ws.id, ids });
while (job.status === 'running') {
  await sleep(300);
  job = await query('sessions.importStatus', { jobId: job.id });
  process.stdout.write(`\r${job.percent}% (${job.done}/${job.total})`);
}
process.stdout.write('\n');
if (job.status === 'failed') {
  console.error(`import failed: ${job.error.code}: ${job.error.message}`);
  process.exit(1);
}
const r = job.report;
console.log(`imported ${r.imported}, updated ${r.updated}, skipped ${r.skipped}, empty ${r.empty}, failed ${r.failed.length}`);
for (const f of r.failed) console.log(`  ${f.sessionId}: ${f.error}`);
