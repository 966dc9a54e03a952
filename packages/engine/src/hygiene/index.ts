export {
  assessWrite,
  MAX_CONFLICTS,
  CONFLICT_MIN_SHARED,
  type ConflictWarning,
  type HygieneCandidate,
  type HygieneDraft,
  type HygieneSettings,
  type HygieneText,
  type WriteAssessment,
} from './assess.ts';
export { fragmentOf, contentChars, type Fragment, type FragmentDraft, type FragmentReason } from './fragment.ts';
export { mergeParagraph, withMergedParagraph, type MergeAddition } from './merge.ts';
export { gateWrite, distinctiveByIdf, CANDIDATE_LIMIT, DISTINCTIVE_IDF, type GateOutcome, type WriteGateDeps } from './gate.ts';
export { overlapCoefficient, numbersIn, numbersDiffer, wordSet, keywordSet } from './similarity.ts';
