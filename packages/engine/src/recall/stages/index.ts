// The relevance pipeline's stages, in the order they run. Adding a stage: write its file here (a
// `RecallStage`: candidates + the recall in, candidates + a record out) and put it in this list.
import type { RecallStage } from '../run.ts';
import { collapse } from './collapse.ts';
import { duplicates } from './duplicates.ts';
import { fuse } from './fuse.ts';
import { gate } from './gate.ts';
import { judge } from './judge.ts';
import { lexical } from './lexical.ts';
import { pool } from './pool.ts';
import { select } from './select.ts';
import { semantic } from './semantic.ts';
import { tokenize } from './tokenize.ts';

export const RELEVANCE_STAGES: readonly RecallStage[] = [tokenize, lexical, semantic, duplicates, fuse, gate, collapse, pool, judge, select];
