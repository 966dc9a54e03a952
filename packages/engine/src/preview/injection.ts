// What the host plugin would put in front of the model for one message, block by block, with each
// block's token cost: the resident memories (and tool guidance), the workspace layer (pinned
// memories first when it lists them), and the recall block — rendered by the same functions the
// plugin uses (preview/texts.ts, recall/render.ts) from the same engine recall. Beside them the near
// misses: the memories the gates turned away, with the query words each one lacks, so a person can
// see why nothing (or not that memory) was recalled and fix it.
import { estimateTokens } from '../compaction/tokens.ts';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { Engine } from '../engine.ts';
import type { GateRemoval, RecallResult } from '../recall/types.ts';
import { escapePromptVariables, renderResident } from './texts.ts';
import { workspaceLayer } from './workspace-levels.ts';

/** The recall reason the plugin puts on a block answering a person's message (recall/freeze.ts). */
export const PREVIEW_RECALL_REASON = 'user-message';
/** Near misses shown at most. */
export const MAX_NEAR_MISSES = 6;

export type InjectionBlockKind = 'resident' | 'pinned' | 'recalled';

export interface InjectionBlockItem {
  docId: string | null;
  title: string;
  date: string;
  pinned?: boolean;
}

export interface InjectionBlock {
  kind: InjectionBlockKind;
  /** Exactly the text the plugin injects ('' when this block is empty for this configuration). */
  text: string;
  tokens: number;
  /** Where the plugin puts it: the system prompt (section/context) or a message in the conversation. */
  placement: 'system' | 'message';
  /** The memories the block names, in order. */
  items: InjectionBlockItem[];
  /** Why the block is empty when it is: turned off in the settings, nothing to show, … */
  empty: 'off' | 'nothing' | null;
}

export interface NearMiss {
  docId: string;
  title: string;
  date: string;
  /** The first gate that turned it away, with the engine's own words (recall explanation). */
  gate: GateRemoval['gate'];
  detail: string;
  /** The hybrid gate's probability for it, when it was judged that way. */
  probability: number | null;
  /** The query's words that carry its meaning (every weighted word, in order). */
  queryWords: string[];
  /** Those words that do not occur in the memory (title, summary, body and tags). */
  missing: string[];
  pinned: boolean;
  archived: boolean;
}

export interface InjectionPreview {
  query: string;
  workspace: string | null;
  blocks: InjectionBlock[];
  totalTokens: number;
  /** The recall the recalled block comes from, with its whole explanation. */
  result: RecallResult;
  nearMisses: NearMiss[];
}

export interface PreviewOptions {
  /** The session's workspace (null: unscoped, as the plugin without a workspace). */
  workspace?: string | null;
  /** The host offers Engram's tools (the plugin then adds the tool guidance and the hint). Default true. */
  toolsAvailable?: boolean;
}

const block = (kind: InjectionBlockKind, text: string, placement: InjectionBlock['placement'], items: InjectionBlockItem[], off: boolean): InjectionBlock => {
  const escaped = escapePromptVariables(text);
  return { kind, text: escaped, tokens: escaped === '' ? 0 : estimateTokens(escaped), placement, items, empty: off ? 'off' : escaped === '' ? 'nothing' : null };
};

async function residentBlock(engine: Engine, toolsAvailable: boolean): Promise<InjectionBlock> {
  const config = engine.config;
  const text = renderResident(config.runtime, engine.residentMemories(), { toolsAvailable });
  return block('resident', text, config.runtime.mode === 'message' ? 'message' : 'system', [], !config.runtime.inject);
}

async function pinnedBlock(engine: Engine, workspace: string | null, toolsAvailable: boolean): Promise<InjectionBlock> {
  const { inject: mode, injectMaxItems: max } = engine.config.workspace;
  const { text, entries } = await workspaceLayer(engine, mode, workspace ?? GLOBAL_WORKSPACE, { max, toolsAvailable });
  const items = entries.map((e) => ({ docId: e.docId, title: e.title, date: e.date, pinned: e.pinned }));
  return block('pinned', text, 'system', items, mode === 'off');
}

function recalledBlock(engine: Engine, result: RecallResult): InjectionBlock {
  const config = engine.config;
  const text = config.inject.enabled ? engine.renderInjection(result, { reason: PREVIEW_RECALL_REASON }) : '';
  const items = result.hits.map((h) => ({ docId: h.docId, title: h.title, date: h.date, pinned: h.pinned }));
  return block('recalled', text, config.inject.mode === 'context' ? 'system' : 'message', config.inject.enabled ? items : [], !config.inject.enabled);
}

/** The words whose absence explains a miss: every word the query weighs (typed, not added by an alias), in order. */
export function meaningWords(result: Pick<RecallResult, 'tokens'>): string[] {
  return [...new Set((result.tokens ?? []).filter((t) => t.weight > 0 && !t.fromAlias).map((t) => t.token))];
}

/** Query words that occur neither as a token nor as text in the memory. Pure. */
export function missingWords(words: readonly string[], memoryTokens: ReadonlySet<string>, memoryText: string): string[] {
  const text = memoryText.toLowerCase();
  return words.filter((w) => !memoryTokens.has(w) && !text.includes(w.toLowerCase()));
}

/** The documents the gates removed, once each, in the order the explanation lists them, minus the hits. */
export function nearMissRemovals(result: Pick<RecallResult, 'hits' | 'explain'>, max = MAX_NEAR_MISSES): GateRemoval[] {
  const hit = new Set(result.hits.map((h) => h.docId));
  const seen = new Set<string>();
  const out: GateRemoval[] = [];
  for (const r of result.explain?.gate?.removals ?? []) {
    if (hit.has(r.docId) || seen.has(r.docId)) continue;
    seen.add(r.docId);
    out.push(r);
    if (out.length >= max) break;
  }
  return out;
}

async function nearMisses(engine: Engine, result: RecallResult): Promise<NearMiss[]> {
  const words = meaningWords(result);
  const out: NearMiss[] = [];
  for (const r of nearMissRemovals(result)) {
    const detail = await engine.read(r.docId).catch(() => null);
    if (!detail) continue;
    const text = detail.raw;
    const tokens = new Set(engine.tokenizer.tokenize(text));
    out.push({
      docId: r.docId,
      title: detail.title || r.title,
      date: detail.date,
      gate: r.gate,
      detail: r.detail,
      probability: typeof r.evidence?.p === 'number' ? r.evidence.p : null,
      queryWords: words,
      missing: missingWords(words, tokens, text),
      pinned: detail.pinned,
      archived: detail.archived,
    });
  }
  return closestFirst(out);
}

/**
 * Closest first: a memory holding some of the query's words before one only the embedding found,
 * then by the hybrid gate's probability (when both have one), else in the explanation's order.
 */
export function closestFirst<M extends Pick<NearMiss, 'missing' | 'queryWords' | 'probability'>>(misses: readonly M[]): M[] {
  const shares = (m: M) => (m.queryWords.length > 0 && m.missing.length < m.queryWords.length ? 0 : 1);
  return misses
    .map((m, i) => ({ m, i }))
    .sort((a, b) => shares(a.m) - shares(b.m) || (a.m.probability !== null && b.m.probability !== null ? b.m.probability - a.m.probability : 0) || a.i - b.i)
    .map(({ m }) => m);
}

/**
 * The injection for `query` as the plugin would make it on a person's message. Read-only: it
 * recalls, renders and reads; it writes nothing.
 */
export async function previewInjection(engine: Engine, query: string, options: PreviewOptions = {}): Promise<InjectionPreview> {
  const workspace = options.workspace ?? null;
  const toolsAvailable = options.toolsAvailable ?? true;
  const result = await engine.recall(query, { workspace });
  const blocks = [await residentBlock(engine, toolsAvailable), await pinnedBlock(engine, workspace, toolsAvailable), recalledBlock(engine, result)];
  return {
    query,
    workspace,
    blocks,
    totalTokens: blocks.reduce((n, b) => n + b.tokens, 0),
    result,
    nearMisses: await nearMisses(engine, result),
  };
}
