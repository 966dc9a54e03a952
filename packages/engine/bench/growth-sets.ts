// The QA sets the growth benchmark runs (bench/growth.ts and its probes): CMRC always, the English set
// when its data is present. Not in growth-data.ts: the English set (growth-english.ts) builds on that
// file, and loading it from there made the two import each other.
import { cmrcSet, type QaSet } from './growth-data.ts';

/**
 * The sets the benchmark runs: CMRC always; the English set when its data is present
 * (bench/data/english/, loaded by bench/growth-english.ts).
 */
export async function growthSets(): Promise<QaSet[]> {
  const sets = [cmrcSet()];
  if (process.env.GROWTH_SETS !== 'zh') {
    try {
      const { englishGrowthSet } = await import('./growth-english.ts');
      sets.push(englishGrowthSet());
    } catch (e) {
      console.error(`growth: no English set (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (process.env.GROWTH_SETS === 'en') sets.shift();
  return sets;
}
