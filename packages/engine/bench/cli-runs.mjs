#!/usr/bin/env node
// Whole-process timings of the `engram` CLI, compiled (dist/cli) against the TypeScript source run
// through tsx (ENGRAM_CLI_SOURCE=1), alternating A B A B so a drifting machine hits both alike.
// Each run is measured by GNU time (/usr/bin/time: wall, user+sys CPU, peak RSS).
//
//   node packages/engine/bench/cli-runs.mjs [--runs 7] [--diary-dir D --data-dir D] [--only version,status,recall,write]
//
// Without --diary-dir a 50-memory synthetic corpus is written and indexed in a temp folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, 'diary-dir': { type: 'string' }, 'data-dir': { type: 'string' }, only: { type: 'string', default: 'version,status,recall,write' } } });
if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time (apt-get install time)');
const bin = new URL('../bin/engram.js', import.meta.url).pathname;
const runs = Number(values.runs);

let diaryDir = values['diary-dir'];
let dataDir = values['data-dir'];
if (!diaryDir) {
  const root = mkdtempSync(join(tmpdir(), 'engram-cli-runs-'));
  diaryDir = join(root, 'diaries');
  dataDir = join(root, 'data');
  mkdirSync(diaryDir);
  for (let i = 0; i < 50; i++)
    writeFileSync(join(diaryDir, `2026-10-${String((i % 28) + 1).padStart(2, '0')}-m${i}.txt`), `[09:00] 记忆 ${i} 节点维护\n\n> 第 ${i} 个节点的维护记录。\n\n节点 ${i} 的 443 端口由 sing-box 接管,时区调整为 UTC+${i % 12}。\n\nTag: 节点${i}, 维护\n`);
  execFileSync(process.execPath, [bin, 'index', '--diary-dir', diaryDir, '--data-dir', dataDir], { stdio: 'ignore' });
}
const common = ['--diary-dir', diaryDir, '--data-dir', dataDir ?? join(diaryDir, '..', 'data')];
let n = 0;
const commands = {
  version: () => ['--version'],
  status: () => ['status', ...common],
  recall: () => ['recall', '东京节点 443 端口', ...common],
  write: () => ['write', '--title', `计时写入 ${process.pid}-${n++}`, '--content', `计时写入第 ${n} 条:大阪节点迁移到新机房,带宽 ${n} Gbps,迁移窗口在周二凌晨。`, ...common],
};

function once(args, source) {
  const env = { ...process.env, ...(source ? { ENGRAM_CLI_SOURCE: '1' } : {}) };
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, bin, ...args], { env, encoding: 'utf8' });
  const line = r.stderr.trim().split('\n').pop() ?? '';
  const [wall, user, sys, kb] = line.split(' ').map(Number);
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return { wall, cpu: user + sys, mb: kb / 1024 };
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0].toFixed(3)} / ${s[Math.floor(s.length / 2)].toFixed(3)} / ${s[s.length - 1].toFixed(3)}`;
};

console.log(`| command | build | wall s min / median / max | CPU s min / median / max | peak RSS MB median |`);
console.log(`|---|---|---|---|---|`);
for (const name of values.only.split(',')) {
  const make = commands[name];
  once(make(), false); // warm-up, not counted
  once(make(), true);
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(once(make(), false));
    b.push(once(make(), true));
  }
  for (const [label, xs] of [['compiled', a], ['tsx source', b]])
    console.log(`| ${name} | ${label} | ${stats(xs.map((x) => x.wall))} | ${stats(xs.map((x) => x.cpu))} | ${stats(xs.map((x) => x.mb)).split(' / ')[1]} |`);
}
