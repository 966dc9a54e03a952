// The fixed scale of each score channel (pure): what a full bar means, and the threshold a gate
// compares the value with. A full fused bar is rank 1 in every channel that ran; the lexical bar is
// the share of the query's weight a hit explains (the coverage gate's measure); the vector bar is the
// cosine on 0–1. None depends on the other hits of the recall.

export interface RecallScaleConfig {
  rrfK: number;
  lexicalWeight: number;
  semanticWeight: number;
  minCoverage: number;
  minSemantic: number;
  hybridGate: { enabled: boolean };
}

/** The engine's defaults (config/schema.ts), used until the settings have loaded. */
export const DEFAULT_SCALE_CONFIG: RecallScaleConfig = { rrfK: 60, lexicalWeight: 1, semanticWeight: 0.25, minCoverage: 0.3, minSemantic: 0.55, hybridGate: { enabled: true } };

export interface ChannelScales {
  /** The highest fused score possible: rank 1 in every channel that ran. */
  fusedMax: number;
  /** The coverage gate's threshold, when that gate decides (not when the hybrid gate replaces it). */
  coverageThreshold?: number;
  /** The vector gate's cosine threshold, likewise. */
  semanticThreshold?: number;
}

export function channelScales(cfg: RecallScaleConfig, semanticRan: boolean): ChannelScales {
  const fusedMax = (cfg.lexicalWeight + (semanticRan ? cfg.semanticWeight : 0)) / (cfg.rrfK + 1);
  // With the vector channel running, the hybrid gate replaces the coverage and cosine thresholds.
  const simpleGates = !(semanticRan && cfg.hybridGate.enabled);
  return {
    fusedMax: fusedMax > 0 ? fusedMax : 1,
    ...(simpleGates && cfg.minCoverage > 0 ? { coverageThreshold: cfg.minCoverage } : {}),
    ...(simpleGates && semanticRan ? { semanticThreshold: cfg.minSemantic } : {}),
  };
}

export const percent = (x: number): string => `${Math.round(x * 100)}%`;
