// Analysis (not a test): why each answerable question of one half (HALF, default 0: tuning) misses its note with the gates on.
import { join } from 'node:path';
import { openEngine } from '../src/engine.ts';
import { modelDirOf } from '../src/model/install.ts';
import { buildStore, GROWTH_STORES } from './growth-data.ts';
import { growthSets } from './growth-sets.ts';
import { fileOf, modelDataDir } from './growth.ts';

const storeName = process.env.STORE ?? '20k';
const work = process.env.WORK as string;
const [set] = (await growthSets()).filter((s) => s.language === 'zh');
const store = buildStore(set!, GROWTH_STORES.find((s) => s.name === storeName)!);
const groupOfPath = new Map<string, string>();
store.notes.forEach((n, i) => groupOfPath.set(fileOf(n, i), n.group ?? n.id));
const model = modelDataDir();
const extra = process.env.ENGRAM_EVAL_OPTIONS ? JSON.parse(process.env.ENGRAM_EVAL_OPTIONS) : {};
const engine = await openEngine({
  options: { ...extra, diaryDir: join(work, 'diaries'), dataDir: join(work, 'data'), diary: { requireTag: false, timePrefix: true }, embedding: { provider: 'local', modelDir: modelDirOf(model!) } },
  env: { HOME: work }, syncOnOpen: false, now: () => new Date('2026-11-01T00:00:00'),
});
await engine.index({ full: false });
const why = new Map<string, number>();
const count = (k: string) => why.set(k, (why.get(k) ?? 0) + 1);
const pathOf = new Map<string, string>();
const groupOfDoc = async (docId: string) => {
  let p = pathOf.get(docId);
  if (p === undefined) { p = (await engine.resolve(docId))?.path ?? ''; pathOf.set(docId, p); }
  return groupOfPath.get(p) ?? p;
};
let n = 0;
const half = Number(process.env.HALF ?? 0);
for (const a of store.asked.filter((x) => x.half === half)) {
  n++;
  const r = await engine.recall(a.q, { k: 20 });
  const groups = r.hits.map((h) => groupOfPath.get(h.path) ?? h.path);
  const at = groups.findIndex((g) => a.groups.includes(g));
  if (at >= 0 && at < 5) { count('hit'); continue; }
  if (r.hits.length === 0) {
    count(`silenced: ${r.explain.gate.silencedBy?.rule}`);
    if (process.env.SHOW) console.log(`silenced (${r.explain.gate.silencedBy?.rule})`, a.q, a.groups.join(','), '|', r.explain.gate.silencedBy?.detail ?? '');
    continue;
  }
  if (at >= 5) {
    count('kept, ranked 6–20');
    if (process.env.SHOW) console.log(`rank ${at + 1}`, a.q, a.groups.join(','), '| above:', r.hits.slice(0, 3).map((h) => h.title).join(' / '));
    continue;
  }
  let removedBy: string | null = null;
  for (const rm of r.explain.gate.removals) if (a.groups.includes(await groupOfDoc(rm.docId))) { removedBy = rm.gate; break; }
  count(removedBy ? `removed by ${removedBy}` : 'not a candidate');
  if (process.env.SHOW) console.log(removedBy ?? 'absent', a.q, a.groups.join(','));
}
console.log(storeName, n, [...why].sort((x, y) => y[1] - x[1]).map(([k, v]) => `${k} ${v}`).join('; '));
engine.close();
