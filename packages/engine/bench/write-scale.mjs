#!/usr/bin/env node
// Does a one-shot command slow down as memory grows? The compiled CLI on two synthetic corpora of
// the same shape (bench/corpus.ts writeSyntheticDiaries: CMRC sentences, ~600 characters each), a
// small and a large one, run alternately (small, large, small, large …) so a drifting machine hits
// both alike; the ratio is taken pair by pair. Each run is a whole process under GNU time.
//
//   node packages/engine/bench/write-scale.mjs [--runs 7] [--small 50] [--large 5000] [--only status,recall,write] [--root DIR]
//
// The corpora are written and indexed once per root (kept between runs: pass the same --root).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    small: { type: 'string', default: '50' },
    large: { type: 'string', default: '5000' },
    only: { type: 'string', default: 'status,recall,write' },
    root: { type: 'string' },
  },
});
if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time (apt-get install time)');
const engineDir = new URL('..', import.meta.url).pathname;
const bin = join(engineDir, 'bin/engram.js');
const root = values.root ?? mkdtempSync(join(tmpdir(), 'engram-write-scale-'));
const runs = Number(values.runs);

function corpus(n) {
  const dir = join(root, `c${n}`);
  const diaryDir = join(dir, 'diaries');
  const dataDir = join(dir, 'data');
  if (!existsSync(join(dataDir, 'engram.db'))) {
    mkdirSync(diaryDir, { recursive: true });
    const script = `import { writeSyntheticDiaries } from ${JSON.stringify(join(engineDir, 'bench/corpus.ts'))}; writeSyntheticDiaries(${JSON.stringify(diaryDir)}, ${n}, 600);`;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: engineDir, stdio: 'inherit' });
    execFileSync(process.execPath, [bin, 'index', '--diary-dir', diaryDir, '--data-dir', dataDir], { stdio: 'ignore' });
  }
  return ['--diary-dir', diaryDir, '--data-dir', dataDir];
}

let n = 0;
const commands = {
  status: () => ['status'],
  recall: () => ['recall', '东京节点 443 端口'],
  write: () => {
    n++;
    return ['write', '--title', `计时写入 ${process.pid}-${n}`, '--content', `计时写入第 ${n} 条:大阪节点迁移到新机房,带宽 ${n} Gbps,迁移窗口在周二凌晨,负责人 ${process.pid % 97} 号。`];
  },
};

function once(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, bin, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  const [wall, user, sys, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, cpu: user + sys, mb: kb / 1024 };
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const stats = (xs) => {
  const s = sorted(xs);
  return `${s[0].toFixed(3)} / ${s[Math.floor(s.length / 2)].toFixed(3)} / ${s[s.length - 1].toFixed(3)}`;
};

const small = Number(values.small);
const large = Number(values.large);
const corpora = { [small]: corpus(small), [large]: corpus(large) };
console.log(`| command | memories | wall s min / median / max | CPU s min / median / max | peak RSS MB median |`);
console.log(`|---|---|---|---|---|`);
const ratios = [];
for (const name of values.only.split(',')) {
  const make = commands[name];
  for (const size of [small, large]) once([...make(), ...corpora[size]]); // warm-up, not counted
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    a.push(once([...make(), ...corpora[small]]));
    b.push(once([...make(), ...corpora[large]]));
  }
  for (const [size, xs] of [[small, a], [large, b]]) console.log(`| ${name} | ${size.toLocaleString('en')} | ${stats(xs.map((x) => x.wall))} | ${stats(xs.map((x) => x.cpu))} | ${median(xs.map((x) => x.mb)).toFixed(1)} |`);
  ratios.push([name, a.map((x, i) => b[i].wall / x.wall), a.map((x, i) => b[i].cpu / x.cpu)]);
}
console.log(`\n| command | ${large.toLocaleString('en')} / ${small} wall, pair by pair min / median / max | CPU |`);
console.log(`|---|---|---|`);
for (const [name, wall, cpu] of ratios) console.log(`| ${name} | ${stats(wall)} | ${stats(cpu)} |`);
console.log(`\ncorpora under ${root}`);
