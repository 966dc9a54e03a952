// One process of the two-process resolve test: resolves every folder given, in order, and prints
// the ids as one JSON line.
import { openEngine } from '../../../src/engine.ts';
import { WorkspaceRegistry } from '../../../src/workspace/registry.ts';

const [diaryDir, dataDir, ...folders] = process.argv.slice(2) as [string, string, ...string[]];
const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: dataDir }, syncOnOpen: false });
const registry = new WorkspaceRegistry(engine);
const ids: string[] = [];
const errors: string[] = [];
for (const folder of folders) {
  try {
    ids.push((await registry.resolve(folder)).id);
  } catch (e) {
    errors.push(e instanceof Error ? e.message : String(e));
  }
}
engine.close();
console.log(JSON.stringify({ ids, errors }));
