// The semantic channel's fusion weight by the query's language. The product's model (bge-small-zh)
// was calibrated on Chinese; on English text it compresses cosines (mean 0.59, sd 0.04 over unrelated
// notes), and at the configured weight its rank 1 outweighed about ten lexical ranks, so the model
// made English recall worse than lexical alone (#26).
//
// The rule: a Chinese or mixed query (or one of digits only), or any query with another model, fuses
// with the configured weight and is judged by the hybrid gate, where they were calibrated. An English
// query with that model (hybrid-gate.ts QUERY_GATE_MODEL) lets the words decide what is found and the
// model reorder it:
// - the model ranks only candidates the words found (stages/fuse.ts leaves embedding-only finds out:
//   its English neighbours are too close together to stand on their own), at its own weight
//   (`recall.english.semanticWeight`), so a note the words found and the model also puts among its
//   nearest rises;
// - the gates judge the query by its words, as lexical recall does (the hybrid gate's weights were
//   fitted on this model's cosines over Chinese).
// Measured on the English set, both halves and every grown store (docs/benchmarks.md, "English
// recall"): never below lexical alone. A weight that only broke ties among the words (the rule before)
// gave exactly lexical alone; scoring every candidate the words found by its cosine, not only those
// among the model's nearest, gave exactly lexical alone too. Pure.
import type { EngramConfig } from '../config/schema.ts';
import type { TextLanguage } from '../text/language.ts';
import { QUERY_GATE_MODEL } from './hybrid-gate.ts';

type RecallConfig = EngramConfig['recall'];

export interface ChannelWeights {
  lexical: number;
  semantic: number;
  /** Why the semantic weight is what it is (the explanation shows it): 'reorder' = it only reorders the words' finds. */
  rule: 'calibrated' | 'reorder';
}

/** `model`: the embedding model that answered (undefined when the channel did not run or does not say). */
export function channelWeightsFor(
  language: TextLanguage,
  model: string | undefined,
  cfg: Pick<RecallConfig, 'lexicalWeight' | 'semanticWeight'> & { english: Pick<RecallConfig['english'], 'semanticWeight'> },
): ChannelWeights {
  if (language === 'en' && model !== undefined && QUERY_GATE_MODEL.test(model)) return { lexical: cfg.lexicalWeight, semantic: cfg.english.semanticWeight, rule: 'reorder' };
  return { lexical: cfg.lexicalWeight, semantic: cfg.semanticWeight, rule: 'calibrated' };
}

/** The semantic candidates fusion reads under a rule: with 'reorder', only those the words found too. */
export function semanticCandidates<T extends { chunkId: string }>(rule: ChannelWeights['rule'], lexicalHits: readonly { chunkId: string }[], semanticHits: T[]): T[] {
  if (rule !== 'reorder') return semanticHits;
  const found = new Set(lexicalHits.map((h) => h.chunkId));
  return semanticHits.filter((h) => found.has(h.chunkId));
}
