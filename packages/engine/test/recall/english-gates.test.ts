// An English query meets the English coverage and specificity bars (recall.english), a Chinese or
// mixed one the configured bars: the bars fitted on Chinese questions silenced long English
// questions whose answer note shares only a few of their words.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Engine } from '../../src/engine.ts';
import { diary, openTestEngine, seedCorpus, tempDirs } from '../engine/helpers.ts';

const NOTES: Record<string, string> = {
  '2026-10-25-standup.txt': diary('09:00', 'Weekly standup moved', 'The weekly meetings moved to Friday afternoons.', 'We scheduled the standup meetings for Fridays at 3 pm; the design team joins remotely.', ['meetings']),
  '2026-10-26-museums.txt': diary('12:00', 'Weird museums of NYC', 'A list of weird museums to visit.', 'The weird museums list: the mmuseumm in an elevator shaft, the city reliquary.', ['museums']),
  '2026-10-27-bike.txt': diary('18:00', 'Bike repair', 'Replaced the rear derailleur cable.', 'The rear derailleur cable was frayed; replaced it and adjusted the gears.', ['bike']),
};
const LONG_QUESTION = 'before I book the conference rooms and order lunch for the offsite tomorrow, remind me what we decided about the standup';

async function engineWith(english: { minCoverage: number; minSpecificity: number; minQueryInformation?: number; minLoneWordInformation?: number }): Promise<Engine> {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  for (const [path, text] of Object.entries(NOTES)) writeFileSync(join(dirs.diaryDir, path), text);
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, recall: { english } });
  await engine.index({ full: true });
  return engine;
}

describe('English gate bars', () => {
  const open: Engine[] = [];
  after(() => open.forEach((e) => e.close()));

  it('a long English question is answered under the English bars and silenced under the Chinese ones', async () => {
    const lenient = await engineWith({ minCoverage: 0.1, minSpecificity: 0.75 });
    const strict = await engineWith({ minCoverage: 0.3, minSpecificity: 1.05 });
    open.push(lenient, strict);
    assert.equal((await lenient.recall(LONG_QUESTION)).hits[0]?.path, '2026-10-25-standup.txt');
    assert.equal((await strict.recall(LONG_QUESTION)).hits.length, 0, 'the bars fitted on Chinese silence it');
  });

  it('the English bars apply to English queries only', async () => {
    const shut = await engineWith({ minCoverage: 1, minSpecificity: 2 });
    open.push(shut);
    assert.equal((await shut.recall('when is the weekly standup meeting')).hits.length, 0, 'English query: English bars');
    const zh = await shut.recall('东京节点的 443 端口后来怎么处理的');
    assert.ok(zh.hits.length > 0, 'a Chinese query keeps the configured bars');
  });

  it('English small talk with one common word is silenced by the English information bar, a rare word is not', async () => {
    // The lone-word bar aside (test/recall/talk-words.test.ts), and a word that speaks of no conversation (list 6.6).
    const bars = { minCoverage: 0.1, minSpecificity: 0.75, minLoneWordInformation: 0 };
    const low = await engineWith({ ...bars, minQueryInformation: 6 });
    const high = await engineWith({ ...bars, minQueryInformation: 7 });
    open.push(low, high);
    assert.ok((await low.recall('quite the list')).hits.length > 0, 'under a low bar the common word reaches the museums note');
    const silenced = await high.recall('quite the list');
    assert.equal(silenced.hits.length, 0);
    assert.equal(silenced.explain.gate.silencedBy?.rule, 'vague-query');
    assert.equal((await high.recall('derailleur cable')).hits[0]?.path, '2026-10-27-bike.txt');
  });
});
