// The semantic channel's fusion weight by the query's language. The product's model (bge-small-zh)
// was calibrated on Chinese; on English text it compresses cosines (mean 0.59, sd 0.04 over unrelated
// notes), and at the configured weight its rank 1 outweighed about ten lexical ranks, so the model
// made English recall worse than lexical alone (#26).
//
// The rule: a Chinese or mixed query (or one of digits only), or any query with another model, fuses
// with the configured weight and is judged by the hybrid gate, where they were calibrated. An English
// query with that model (hybrid-gate.ts QUERY_GATE_MODEL) uses the model as a tie-breaker only:
// - its weight is so small that its largest contribution, weight / (rrfK + 1), stays below the
//   smallest gap between two adjacent lexical ranks within lexicalLimit, 1 / ((rrfK + L) (rrfK + L + 1)):
//   two lexical candidates of different ranks never swap;
// - it ranks only candidates the words found (stages/fuse.ts leaves embedding-only finds out), and
// - the gates judge the query by its words, as lexical recall does (the hybrid gate's weights were
//   fitted on this model's cosines over Chinese).
// So the model can reorder only candidates the words tie on, and can never make a result worse than
// lexical alone. Pure.
import type { EngramConfig } from '../config/schema.ts';
import type { TextLanguage } from '../text/language.ts';
import { QUERY_GATE_MODEL } from './hybrid-gate.ts';

type RecallConfig = EngramConfig['recall'];

/** Share of the largest non-reordering weight used for English (strictly below it). */
const TIE_BREAK_SHARE = 0.9;

export interface ChannelWeights {
  lexical: number;
  semantic: number;
  /** Why the semantic weight is what it is (the explanation shows it). */
  rule: 'calibrated' | 'tie-break';
}

export function tieBreakWeight(cfg: Pick<RecallConfig, 'rrfK' | 'lexicalLimit' | 'lexicalWeight'>): number {
  const last = cfg.rrfK + cfg.lexicalLimit;
  return (TIE_BREAK_SHARE * cfg.lexicalWeight * (cfg.rrfK + 1)) / (last * (last + 1));
}

/** `model`: the embedding model that answered (undefined when the channel did not run or does not say). */
export function channelWeightsFor(
  language: TextLanguage,
  model: string | undefined,
  cfg: Pick<RecallConfig, 'rrfK' | 'lexicalLimit' | 'lexicalWeight' | 'semanticWeight'>,
): ChannelWeights {
  if (language !== 'en' || model === undefined || !QUERY_GATE_MODEL.test(model)) return { lexical: cfg.lexicalWeight, semantic: cfg.semanticWeight, rule: 'calibrated' };
  return { lexical: cfg.lexicalWeight, semantic: Math.min(cfg.semanticWeight, tieBreakWeight(cfg)), rule: 'tie-break' };
}
