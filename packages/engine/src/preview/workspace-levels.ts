// The workspace layer, level by level (seed 001-55): what hint / index / full / off would put in the
// system prompt for one workspace, with each text's token cost. workspaceLayer is the one render
// of that layer: the plugin's injection (apps/plugin host/workspace/inject.ts) and the console's
// preview both call it, so the preview cannot drift from what the model is given.
import { estimateTokens } from '../compaction/tokens.ts';
import type { EngramConfig } from '../config/schema.ts';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';
import type { Engine } from '../engine.ts';
import { escapePromptVariables, renderWorkspaceIndex, WORKSPACE_HINT, type WorkspaceIndexEntry } from './texts.ts';

export type WorkspaceLevel = EngramConfig['workspace']['inject'];
/** In the order the settings offer them: the default first. */
export const WORKSPACE_LEVELS: readonly WorkspaceLevel[] = ['hint', 'index', 'full', 'off'];

export interface WorkspaceLayer {
  /** The text as rendered, before the host's template escaping ('' = the layer adds nothing). */
  text: string;
  /** The memories it lists (index / full), in order. */
  entries: WorkspaceIndexEntry[];
  /** How many memories the workspace (+ global) holds; 0 for hint and off, which list none. */
  total: number;
}

/** The engine's index pages hold at most this many. */
const PAGE = 100;

/** The workspace layer's entries as the plugin collects them: pinned first, then most recently changed. */
export async function workspaceIndexEntries(engine: Pick<Engine, 'memoryIndex'>, workspace: string, max: number): Promise<{ entries: WorkspaceIndexEntry[]; total: number }> {
  const entries: WorkspaceIndexEntry[] = [];
  let total = 0;
  for (let page = 1; entries.length < max; page++) {
    const result = await engine.memoryIndex({ workspace, page, pageSize: PAGE });
    total = result.total;
    for (const m of result.items.slice(0, max - entries.length)) {
      entries.push({ docId: m.docId, date: m.date, title: m.title, summary: m.summary, pinned: m.pinned, global: m.workspace === GLOBAL_WORKSPACE && workspace !== GLOBAL_WORKSPACE });
    }
    if (page >= result.pages) break;
  }
  return { entries, total };
}

/** The hint level's text: it points at the tools, so it is empty when the host offers none. */
export const workspaceHintText = (toolsAvailable: boolean): string => (toolsAvailable ? WORKSPACE_HINT : '');

/** The workspace layer's text at `level` for `workspace`, listing at most `max` memories. */
export async function workspaceLayer(
  engine: Pick<Engine, 'memoryIndex'>,
  level: WorkspaceLevel,
  workspace: string,
  options: { max: number; toolsAvailable: boolean },
): Promise<WorkspaceLayer> {
  if (level === 'off') return { text: '', entries: [], total: 0 };
  if (level === 'hint') return { text: workspaceHintText(options.toolsAvailable), entries: [], total: 0 };
  const { entries, total } = await workspaceIndexEntries(engine, workspace, options.max);
  return { text: renderWorkspaceIndex(level, entries, total, { toolsAvailable: options.toolsAvailable }), entries, total };
}

export interface WorkspaceLevelPreview {
  level: WorkspaceLevel;
  /** The level in effect (config workspace.inject). */
  current: boolean;
  /** Exactly the text the plugin would inject (escaped as it injects it). */
  text: string;
  tokens: number;
  items: { docId: string; title: string; date: string; pinned: boolean; global: boolean }[];
  /** Memories the workspace (+ global) holds, for index / full; 0 for hint and off. */
  total: number;
}

export interface WorkspaceLevelsPreview {
  workspace: string;
  current: WorkspaceLevel;
  /** workspace.injectMaxItems: index and full list at most this many. */
  maxItems: number;
  levels: WorkspaceLevelPreview[];
}

/** Every level of the workspace layer for `workspace` (default global). Read-only. */
export async function previewWorkspaceLevels(
  engine: Pick<Engine, 'memoryIndex' | 'config'>,
  workspace: string | null = null,
  options: { toolsAvailable?: boolean } = {},
): Promise<WorkspaceLevelsPreview> {
  const ws = workspace ?? GLOBAL_WORKSPACE;
  const { inject: current, injectMaxItems: max } = engine.config.workspace;
  const toolsAvailable = options.toolsAvailable ?? true;
  const levels: WorkspaceLevelPreview[] = [];
  for (const level of WORKSPACE_LEVELS) {
    const layer = await workspaceLayer(engine, level, ws, { max, toolsAvailable });
    const text = escapePromptVariables(layer.text);
    levels.push({
      level,
      current: level === current,
      text,
      tokens: text === '' ? 0 : estimateTokens(text),
      items: layer.entries.map((e) => ({ docId: e.docId, title: e.title, date: e.date, pinned: e.pinned, global: e.global })),
      total: layer.total,
    });
  }
  return { workspace: ws, current, maxItems: max, levels };
}
