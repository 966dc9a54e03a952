// The engine's public surface, shared by the CLI, the console (tRPC) and the plugin.
import type { EngramConfig } from './config/schema.ts';
import type { MemoryMeta } from './diary/meta.ts';
import type { DocMeta, RecallResult } from './recall/types.ts';
import type { WarningSummary } from './status/warning-kinds.ts';

export interface MemorySummary extends DocMeta {
  time: string | null;
  summary: string;
  /** manual (written with the memory), auto (summary queue's model), rule (fallback), none (no summary line). */
  summarySource: string;
  /** Last change of the file (ms since epoch). */
  mtimeMs: number;
  chunks: number;
  archived: boolean;
  warnings: string[];
  /** true for the read-only legacy corpus. */
  readOnly: boolean;
}

export interface MemoryDetail extends MemorySummary {
  /** The whole file content. */
  raw: string;
  /** sha1 of `raw`: send it back on save so a concurrent edit is detected instead of overwritten. */
  contentHash: string;
}

export interface WriteInput {
  title?: string;
  /** Full diary text (`[HH:MM] title`, `> summary`, body, `Tag: …`) or just a body. */
  content: string;
  summary?: string;
  tags?: string[];
  folder?: string;
  date?: string;
  time?: string;
  /** Workspace ('global' by default), session, origin, pinned, locked, supersedes. */
  meta?: Partial<MemoryMeta>;
}

export interface WriteResult {
  docId: string;
  path: string;
  warnings: string[];
  /** Whether the new memory already has vectors (false when the semantic channel is off or degraded). */
  semanticIndexed: boolean;
  /**
   * true: the write was a near-duplicate of an older memory (docId/path are that memory's); its words
   * were added to it as a dated paragraph, or nothing was written when they were already there.
   */
  merged?: boolean;
  /** Older memories this write probably contradicts (shared subject, different numbers); none was changed. */
  conflicts?: { docId: string; title: string; reason: string }[];
}

export interface IndexProgress {
  phase: 'scan' | 'parse' | 'tokenize' | 'store' | 'embed' | 'done';
  done: number;
  total: number;
  message?: string;
}

export interface IndexReport {
  mode: 'full' | 'incremental';
  documents: number;
  chunks: number;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  warnings: string[];
  skipped: { path: string; reason: string }[];
  semantic: { embedded: number; reused: number; degradedBatches: number; skipped: string | null };
  ms: number;
}

export interface EngineStatus {
  documents: number;
  archived: number;
  chunks: number;
  vectors: number;
  tokenizer: { configured: string; active: 'jieba' | 'gram'; fallbackReason: string | null; builtWith: string | null; mismatch: boolean };
  chunkParams: { size: number; overlap: number; builtWith: { size: number; overlap: number } | null; adviseRebuild: boolean };
  semantic: { state: string; reason: string | null; action: string | null; provider: string; dimensions: number };
  /** The optional relevance judge: off / ready / failing (with why), its last call's latency. */
  judge: { state: 'off' | 'ready' | 'failing'; reason: string | null; lastLatencyMs: number | null; lastAt: string | null; proxy: string | null };
  builtAt: string | null;
  folders: { root: string; category: string; documents: number }[];
  /** The first 500 warnings. */
  warnings: string[];
  /**
   * Every warning counted and grouped by kind (the index loaded; before that, the first 500 read):
   * optional gaps (a missing summary) apart from what a person can fix.
   */
  warningSummary: WarningSummary;
  diaryDir: string;
  /**
   * The diary folder is gone (deleted, moved away, its drive unmounted): since when this engine has
   * found it so, and the words for it (Chinese first: where it was expected, recall paused until it
   * is back, the index kept). null while it is there.
   */
  diaryMissing: { since: string; message: string } | null;
  dataDir: string;
  databaseUrl: string;
}

export interface SettingsView {
  /** Effective config with secrets masked. */
  effective: EngramConfig;
  /** Deploy base (config file + env) with secrets masked. */
  base: EngramConfig;
  overlay: Record<string, unknown>;
  /** Config paths whose value comes from env and cannot be changed from the console. */
  lockedByEnv: string[];
}

export type SaveSettingsResult =
  | { ok: true; restartRequired: string[] }
  | { ok: false; requiresConfirmation: true; reasons: string[]; fatal: boolean; /** Set when the save moves the diary root: resend with `confirmDiaryDir` equal to it. */ confirmDiaryDir?: string };

export type { RecallResult };
