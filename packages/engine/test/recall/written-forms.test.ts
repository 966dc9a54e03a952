// The index holds English words stemmed and lower-cased (Redis → redi, migrations → migrat); the
// explanation shows each query word as the question writes it beside that term, so a reader sees
// "Redis", not "redi".
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { recallJson, recallText } from '../../src/cli/output.ts';
import { writtenForms } from '../../src/text/latin.ts';
import { diary, openTestEngine, tempDirs } from '../engine/helpers.ts';

test('each term a text\'s words become, with the word as written where the two differ', () => {
  const forms = writtenForms("Redis 淘汰策略 and the migrations, Tom's keys, redis again, getUserProfile");
  assert.equal(forms.get('redi'), 'Redis');
  assert.equal(forms.get('migrat'), 'migrations');
  assert.equal(forms.get('tom'), 'Tom');
  assert.equal(forms.get('key'), 'keys');
  assert.equal(forms.get('getuserprofile'), 'getUserProfile', 'an identifier is kept whole, lower-cased');
  assert.deepEqual([...writtenForms('lunch port 缓存')], [], 'a word that is its own term needs no second form');
});

test('a recall\'s tokens carry the written word; the console, engram recall and --json show it', async (t) => {
  const dirs = tempDirs();
  writeFileSync(join(dirs.diaryDir, '2026-10-01-redis.txt'), diary('09:00', 'Redis eviction', 'allkeys-lru', 'The cache cluster uses allkeys-lru eviction with maxmemory 12gb.', ['redis']));
  writeFileSync(join(dirs.diaryDir, '2026-10-02-lunch.txt'), diary('12:00', 'Lunch', 'noodles', 'Noodles at the place downstairs.', ['lunch']));
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, timeDecay: { enabled: false } });
  t.after(() => engine.close());
  await engine.index({ full: true });
  const r = await engine.recall('Redis eviction before lunch', { k: 5 });
  assert.deepEqual(r.tokens.map((tok) => [tok.token, tok.written]), [['redi', 'Redis'], ['evict', 'eviction'], ['lunch', undefined]]);
  assert.match(recallText(r), /^tokens: Redis→redi\*/m);
  assert.equal(recallJson(r).tokens.find((tok) => tok.token === 'redi')?.written, 'Redis');
});
