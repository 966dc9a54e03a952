// The recall pipeline: the time channel first (a query naming days is answered by those days'
// memories), otherwise relevance — the ordered stages of recall/stages/index.ts (tokenize → lexical
// → semantic → fuse → gate → collapse → pool → judge → select), run and timed by recall/stage.ts,
// the explanation derived from their records by recall/explain.ts. The one implementation behind
// the CLI, the console and the plugin.
import { planTimeChannel } from '../timeq/channel.ts';
import type { RecallDeps, RecallOptions } from './deps.ts';
import { recallResultOf, silencedResult } from './explain.ts';
import { newRun } from './run.ts';
import { runStages } from './stage.ts';
import { RELEVANCE_STAGES } from './stages/index.ts';
import type { DocMeta, RecallResult } from './types.ts';

export type { DocMeta };
export type { Judge, JudgeVerdict, LexicalSearcher, RecallDeps, RecallOptions, SemanticSearcher, SemanticSearchResult } from './deps.ts';

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

export async function recall(deps: RecallDeps, query: string, options: RecallOptions = {}): Promise<RecallResult> {
  // Before the time channel too: it answers from the same index.
  if (deps.silenced) return silencedResult({ query, tokenizer: deps.tokenizer.engine, silencedBy: deps.silenced, maxChars: deps.config.recall.maxChars });
  const time = await planTimeChannel(deps, query, options);
  if (time?.kind === 'answer') return time.result;
  const result = await recallByRelevance(deps, query, options);
  result.explain.time = time?.explain ?? null;
  return result;
}

async function recallByRelevance(deps: RecallDeps, query: string, options: RecallOptions): Promise<RecallResult> {
  const tStart = performance.now();
  const run = newRun(deps, query, options);
  const { records } = await runStages(RELEVANCE_STAGES, [], run);
  return recallResultOf({ query, tokenizer: deps.tokenizer.engine, tokens: run.analysis.tokens, hits: run.hits, records, totalMs: ms(tStart) });
}
