// The compaction channel's facade: what the plugin (and the console) call. It strings the pure
// modules together and owns the I/O: rows in the engine's database, the rules book and archive
// files under the data dir, and the optional model assistance.
//   ingest      — on compaction/summary: L1 + L2 blocks, rules book, archive, overview; de-duplicated
//                 by compactionId (range fingerprint as the fallback), recorded after the writes;
//   windowTexts — the overview and rules texts of the current compaction window (stored, stable);
//   answer      — on a question: what to inject (scored locally, within the budgets);
//   historyRead — verbatim past turns, for the history_read tool;
//   recheck     — on demand: local search, optional query rewrite and strong-relevance verdict;
//   trash / restore / purge / audit — storage management; expireTrash purges what has been in the
//                 trash longer than compaction.trashDays (run by ingest and listSessions, hourly at most).
import type { Database } from '@engram/db';
import type { EngramConfig } from '../config/schema.ts';
import { silentLogger, type Logger } from '../log.ts';
import { neutraliseDelimiters } from '../security/delimiters.ts';
import type { Tokenizer } from '../types.ts';
import { addToArchive, type ArchiveDoc } from './archive.ts';
import { dayOf, ModelAssist, type AssistRoute, type Complete } from './assist.ts';
import { CompactionFiles } from './files.ts';
import { batchKeywords } from './keywords.ts';
import { buildOverview } from './overview.ts';
import { classifySummary } from './rules.ts';
import { mergeRules, type RuleEntry } from './rules-book.ts';
import { BlockScorer, sameTopic, type ScoredBlock } from './score.ts';
import { capSummary, MAX_SUMMARY_CHARS, splitSummarySections, summaryText } from './sections.ts';
import { excerptAround, selectForInjection, type Dropped, type SelectedItem } from './select.ts';
import { CompactionStore, type AuditEntry, type RunRecord, type SessionSummary } from './store.ts';
import { estimateTokens } from './tokens.ts';
import { charLength, clipChars, collapseWhitespace, fingerprint16 } from './text.ts';
import { extractTranscript } from './transcript.ts';
import type { DraftBlock, SessionScope, StoredBlock, TranscriptEvent } from './types.ts';

export const RULES_TAG = 'engram-rules';
const KEYWORDS_PER_BLOCK = 6;
const MAX_CACHED_SESSIONS = 64;

export interface CompactionMemoryDeps {
  database: Pick<Database, 'db'>;
  dataDir: string;
  tokenizer: Tokenizer;
  /** Read on every call, so settings saved elsewhere apply at once. */
  config(): EngramConfig;
  /** The host's model service (the plugin adapts ctx.llm); null = no model assistance. */
  complete?: Complete | null;
  log?: Logger;
  now?: () => Date;
}

export interface IngestInput {
  scope: SessionScope;
  compactionId?: string | null;
  /** The summary's content blocks (or its text). */
  summary: unknown;
  shadowedSeqs?: readonly number[] | null;
  shadowedRange?: { start: number; end: number } | null;
  /** The session's events (any superset of the shadowed range). */
  events: readonly TranscriptEvent[];
  /** The session's own model, for assist mode 'main'. */
  mainRoute?: AssistRoute | null;
}

export interface IngestReport {
  status: 'ingested' | 'duplicate' | 'disabled';
  dedupeKey: string;
  /** The summary's length before it was cut to MAX_SUMMARY_CHARS (UTF-16 code units); null = read whole. */
  summaryCutFrom: number | null;
  summaryBlocks: number;
  dialogueBlocks: number;
  toolBlocks: number;
  added: number;
  skipped: number;
  rules: { added: number; bumped: number; evicted: number; demoted: number; notes: number };
  archive: 'added' | 'duplicate' | 'refused' | 'none';
  overviewTokens: number;
  modelKeywords: number;
  /** Non-fatal failures (files); the blocks and the run are still recorded. */
  errors: string[];
}

export interface WindowTexts {
  /** Identifies the window: the dedupe key of its compaction. */
  key: string;
  overview: string;
  rules: string;
}

export interface AnswerResult {
  text: string;
  tokens: number;
  items: SelectedItem[];
  dropped: Dropped[];
  topScore: number;
  /** Why nothing was injected, when nothing was. */
  reason: '' | 'disabled' | 'no-blocks' | 'cooldown' | 'no-match' | 'over-budget';
}

export interface HistoryTurn {
  id: string;
  title: string;
  compactionId: string;
  seqStart: number | null;
  seqEnd: number | null;
  body: string;
}

export interface HistoryReadResult {
  turns: HistoryTurn[];
  /** Matching turns left out by the character cap (said, never silent). */
  omitted: number;
  text: string;
}

export interface RecheckResult {
  found: boolean;
  blocks: { id: string; title: string; score: number }[];
  skippedRewrite: boolean;
  rewrote: boolean;
  verdict: number | null;
}

const scopeKey = (scope: SessionScope): string => `${scope.workspace}\u0000${scope.sessionId}`;
const DAY_MS = 86_400_000;
/** The automatic trash expiry runs at most this often (the trash is kept in days). */
const EXPIRY_EVERY_MS = 3_600_000;
/** A trash entry's name starts with the time it was trashed, made file-safe. */
const trashStamp = (at: string): string => at.replace(/[:.]/g, '-');
/** The time a trash entry's name starts with, as ISO text; null for a name not made by trashStamp. */
function trashedAtOf(name: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(name);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : null;
}

export class CompactionMemory {
  readonly store: CompactionStore;
  readonly files: CompactionFiles;
  readonly assist: ModelAssist;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly scorers = new Map<string, { scorer: BlockScorer; blocks: Map<string, StoredBlock> }>();
  private readonly lastQuery = new Map<string, Set<string>>();
  /**
   * What a look-again decided for the session's next question: the blocks it found (brought back
   * first, even when shown before — the person asked for them again) and the candidates a verdict
   * saw and turned down for that question (not brought back with them).
   */
  private readonly pending = new Map<string, { picked: string[]; declined: string[] }>();
  /** When the automatic trash expiry last started, and its run (for idleExpiry). */
  private lastExpiry: number | null = null;
  private expiring: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CompactionMemoryDeps) {
    this.store = new CompactionStore(deps.database.db);
    this.files = new CompactionFiles(deps.dataDir);
    this.log = deps.log ?? silentLogger;
    this.now = deps.now ?? (() => new Date());
    this.assist = new ModelAssist({ complete: deps.complete ?? null, store: this.store, config: () => deps.config().compaction.assist, now: this.now, log: this.log });
  }

  private get config() {
    return this.deps.config().compaction;
  }

  /** A database written by a newer Engram is opened read-only: this channel then writes nothing. */
  get readOnly(): boolean {
    return Boolean((this.deps.database as { readOnly?: unknown }).readOnly);
  }

  private tokenize = (text: string): string[] => this.deps.tokenizer.tokenize(text);

  /** Runs calls for one session one after another (ingest, answer, deletes). */
  private serial<T>(scope: SessionScope, run: () => Promise<T>): Promise<T> {
    const key = scopeKey(scope);
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(key, settled);
    void settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }

  /** Resolves when every queued call for the session has finished. */
  async idle(scope: SessionScope): Promise<void> {
    await this.queues.get(scopeKey(scope));
  }

  private invalidate(scope: SessionScope): void {
    this.scorers.delete(scopeKey(scope));
  }

  ingest(input: IngestInput): Promise<IngestReport> {
    const report = this.serial(input.scope, () => this.ingestNow(input));
    // After the ingest, not beside it: the compaction's own writes come first.
    void report.then(() => this.autoExpire(), () => this.autoExpire());
    return report;
  }

  private async ingestNow(input: IngestInput): Promise<IngestReport> {
    const cfg = this.config;
    const { scope } = input;
    const seqs = shadowedSeqsOf(input);
    const rangeFingerprint = fingerprint16(`${scope.sessionId}:${seqs.join(',')}`);
    const compactionId = typeof input.compactionId === 'string' && input.compactionId.trim() !== '' ? input.compactionId.trim() : null;
    const dedupeKey = compactionId ?? `range:${rangeFingerprint}`;
    const report: IngestReport = {
      status: 'ingested',
      dedupeKey,
      summaryCutFrom: null,
      summaryBlocks: 0,
      dialogueBlocks: 0,
      toolBlocks: 0,
      added: 0,
      skipped: 0,
      rules: { added: 0, bumped: 0, evicted: 0, demoted: 0, notes: 0 },
      archive: 'none',
      overviewTokens: 0,
      modelKeywords: 0,
      errors: [],
    };
    if (!cfg.enabled || this.readOnly) return { ...report, status: 'disabled' };
    if (await this.store.hasRun(scope, dedupeKey)) return { ...report, status: 'duplicate' };

    // Everything below reads `text` in synchronous steps; the beginning of a huge summary is enough.
    const { text, cutFrom: summaryCutFrom } = capSummary(summaryText(input.summary));
    report.summaryCutFrom = summaryCutFrom;
    if (summaryCutFrom !== null) {
      this.log('warn', `compaction ingest ${scope.sessionId} ${dedupeKey}: summary of ${summaryCutFrom} characters cut to ${text.length} (MAX_SUMMARY_CHARS ${MAX_SUMMARY_CHARS}); sections, rules and archive come from that beginning, the whole stays in the host's session log`);
    }
    const drafts: DraftBlock[] = [];
    if (cfg.ingestSummary) {
      for (const section of splitSummarySections(text, cfg.maxBlockChars)) {
        drafts.push({ layer: 'L1', kind: 'summary', title: section.title, body: section.body, keywords: [], fingerprint: fingerprint16(section.body), seqStart: null, seqEnd: null, cutFrom: null });
      }
    }
    const seqSet = new Set(seqs);
    // Tool calls are not part of the visible history (so not in shadowedSeqs), but they name what a
    // folded tool result read: take the ones inside the folded span.
    const [low, high] = [seqs[0] ?? 0, seqs.at(-1) ?? -1];
    const shadowed = input.events.filter((e) => seqSet.has(e.seq) || (e.type === 'tool/call' && e.seq >= low && e.seq <= high));
    const pieces = extractTranscript(shadowed, {
      dialogue: cfg.ingestDialogue,
      toolResults: cfg.ingestToolResults,
      readTools: cfg.readTools,
      maxBlockChars: cfg.maxBlockChars,
      maxToolResultChars: cfg.maxToolResultChars,
      injectedTags: [this.deps.config().inject.blockName],
    });
    for (const piece of pieces) {
      drafts.push({ layer: 'L2', kind: piece.kind, title: piece.title, body: piece.body, keywords: [], fingerprint: fingerprint16(piece.body), seqStart: piece.seqStart, seqEnd: piece.seqEnd, cutFrom: piece.cutFrom });
    }
    const keywords = batchKeywords(drafts.map((d) => this.tokenize(`${d.title}\n${d.body}`)), KEYWORDS_PER_BLOCK);
    drafts.forEach((d, i) => (d.keywords = keywords[i] ?? []));
    report.summaryBlocks = drafts.filter((d) => d.kind === 'summary').length;
    report.dialogueBlocks = drafts.filter((d) => d.kind === 'dialogue').length;
    report.toolBlocks = drafts.filter((d) => d.kind === 'tool').length;

    const withModel = await this.modelKeywords(drafts, input.mainRoute ?? null);
    report.modelKeywords = withModel.filter((d) => d.modelKeywords.length > 0).length;
    const createdAt = this.now().toISOString();
    const inserted = await this.store.insertBlocks(scope, compactionId ?? dedupeKey, withModel, createdAt);
    report.added = inserted.added.length;
    report.skipped = inserted.skipped;
    this.invalidate(scope);

    let rulesBook: RuleEntry[] | null = null;
    if (cfg.rules.enabled && text.trim() !== '') {
      const spans = classifySummary(text);
      const rules = spans.filter((s) => s.tier === 'rule').map((s) => s.text);
      const notes = spans.filter((s) => s.tier === 'note');
      report.rules.demoted = notes.filter((s) => s.reason === 'demoted:not-chinese').length;
      report.rules.notes = notes.length;
      const date = dayOf(this.now());
      try {
        const merged = mergeRules(await this.files.readRules(scope), rules, { date, compactionId: dedupeKey, max: cfg.rules.maxRules, tokenize: this.tokenize });
        if (merged.added + merged.bumped + merged.evicted.length > 0) await this.files.writeRules(scope, merged.book);
        rulesBook = merged.book;
        report.rules = { ...report.rules, added: merged.added, bumped: merged.bumped, evicted: merged.evicted.length };
      } catch (error) {
        report.errors.push(`rules book: ${errorText(error)}`);
      }
      if (notes.length > 0) {
        try {
          const title = archiveTitle(drafts.find((d) => d.kind === 'summary')?.title ?? '压缩摘要', summaryCutFrom, text.length);
          const doc: ArchiveDoc = await this.files.readArchive(scope);
          const added = addToArchive(doc, { title, date, compactionId: dedupeKey, body: notes.map((n) => n.text).join('\n') }, { maxBytes: cfg.rules.archiveMaxBytes, sessionId: scope.sessionId });
          report.archive = added.outcome;
          if (added.outcome !== 'duplicate') await this.files.writeArchive(scope, added.doc, cfg.rules.archiveMaxBytes);
          if (added.outcome === 'refused') this.log('warn', `compaction archive: section of ${added.bytes} bytes exceeds the ${cfg.rules.archiveMaxBytes}-byte budget, refused (counted in the file head)`);
        } catch (error) {
          report.errors.push(`archive: ${errorText(error)}`);
        }
      }
    }

    const runs = await this.store.runs(scope);
    const overview = cfg.overview ? await this.overviewFor(scope, cfg.overviewMaxTokens) : { text: '', tokens: 0 };
    report.overviewTokens = overview.tokens;
    const rulesText = cfg.rules.enabled ? renderRules(rulesBook ?? (await this.files.readRules(scope).catch(() => [])), cfg.rules.injectMaxTokens) : '';
    const run: RunRecord = {
      ...scope,
      dedupeKey,
      compactionId,
      rangeFingerprint,
      ord: runs.reduce((max, r) => Math.max(max, r.ord), 0) + 1,
      seqStart: seqs[0] ?? null,
      seqEnd: seqs.at(-1) ?? null,
      blocksAdded: report.added,
      blocksSkipped: report.skipped,
      overview: overview.text,
      overviewTokens: overview.tokens,
      rulesText,
      report: { ...report },
      createdAt,
    };
    // Recorded last: a failure above leaves no record, so the next delivery tries again.
    await this.store.insertRun(run);
    this.log('info', `compaction ingest ${scope.sessionId} ${dedupeKey}: +${report.added} blocks (${report.skipped} known), L1 ${report.summaryBlocks}, dialogue ${report.dialogueBlocks}, tool ${report.toolBlocks}, rules +${report.rules.added}/${report.rules.bumped} bumped, archive ${report.archive}, overview ${overview.tokens} tok`);
    return report;
  }

  private async modelKeywords(drafts: DraftBlock[], mainRoute: AssistRoute | null): Promise<(DraftBlock & { modelKeywords: string[] })[]> {
    const out = drafts.map((d) => ({ ...d, modelKeywords: [] as string[] }));
    const cfg = this.config.assist;
    const route = this.assist.route(mainRoute);
    if (!route || !cfg.ingestKeywords) return out;
    // Tool results are found by their file name and title; only dialogue is worth a model call.
    const dialogue = out.filter((d) => d.kind === 'dialogue');
    try {
      const words = await this.assist.keywords(route, dialogue);
      dialogue.forEach((d, i) => (d.modelKeywords = words[i] ?? []));
    } catch (error) {
      this.log('warn', `compaction assist keywords failed: ${errorText(error)}`);
    }
    return out;
  }

  /** The overview of the session so far, from the L1 blocks of every compaction. */
  private async overviewFor(scope: SessionScope, maxTokens: number): Promise<{ text: string; tokens: number }> {
    const blocks = (await this.store.blocks(scope)).filter((b) => b.kind === 'summary');
    const order = new Map<string, number>();
    for (const b of blocks) if (!order.has(b.compactionId)) order.set(b.compactionId, order.size);
    return buildOverview(blocks.map((b) => ({ title: b.title, body: b.body, order: order.get(b.compactionId)! })), maxTokens);
  }

  /** The overview and rules texts stored with the session's latest compaction, or null before any. */
  async windowTexts(scope: SessionScope): Promise<WindowTexts | null> {
    const runs = await this.store.runs(scope);
    const latest = runs.at(-1);
    if (!latest) return null;
    return { key: latest.dedupeKey, overview: latest.overview, rules: latest.rulesText };
  }

  /** Dedupe keys of the compactions already ingested for a session. */
  async knownCompactions(scope: SessionScope): Promise<Set<string>> {
    return new Set((await this.store.runs(scope)).map((r) => r.dedupeKey));
  }

  private async scorerFor(scope: SessionScope): Promise<{ scorer: BlockScorer; blocks: Map<string, StoredBlock> }> {
    const key = scopeKey(scope);
    const cached = this.scorers.get(key);
    if (cached) return cached;
    const blocks = await this.store.blocks(scope);
    const cfg = this.deps.config();
    const scorer = new BlockScorer(
      blocks.map((b) => ({ id: b.id, title: b.title, keywords: [...b.keywords, ...b.modelKeywords], body: b.body })),
      this.tokenize,
      { weights: cfg.compaction.fieldWeights, singleCharWeight: cfg.recall.singleCharWeight, k1: cfg.recall.bm25K1, b: cfg.recall.bm25B },
    );
    const entry = { scorer, blocks: new Map(blocks.map((b) => [b.id, b])) };
    this.scorers.set(key, entry);
    while (this.scorers.size > MAX_CACHED_SESSIONS) this.scorers.delete(this.scorers.keys().next().value!);
    return entry;
  }

  private tokenSet = (text: string): Set<string> => new Set(this.tokenize(text));

  /** What to inject for a question (marks what it returns as injected). */
  answer(scope: SessionScope, query: string): Promise<AnswerResult> {
    return this.serial(scope, () => this.answerNow(scope, query));
  }

  private async answerNow(scope: SessionScope, query: string): Promise<AnswerResult> {
    const none = (reason: AnswerResult['reason'], topScore = 0, dropped: Dropped[] = []): AnswerResult => ({ text: '', tokens: 0, items: [], dropped, topScore, reason });
    const cfg = this.config;
    if (!cfg.enabled || !cfg.inject) return none('disabled');
    const { scorer, blocks } = await this.scorerFor(scope);
    if (scorer.size === 0) return none('no-blocks');
    const key = scopeKey(scope);
    const { picked: queued, declined } = this.pending.get(key) ?? { picked: [], declined: [] };
    this.pending.delete(key);
    const current = this.tokenSet(query);
    const previous = this.lastQuery.get(key) ?? null;
    this.lastQuery.set(key, current);
    if (queued.length === 0 && sameTopic(previous, current, cfg.cooldownSimilarity)) return none('cooldown');

    const scored: ScoredBlock[] = scorer.score(query, 20);
    // Blocks a recheck found strongly relevant come first, whatever their local score (selection
    // keeps a forced one even when shown before); the ones its verdict turned down stay out.
    const forced = queued.filter((id) => blocks.has(id)).map((id) => ({ id, score: Number.POSITIVE_INFINITY, raw: 0, matched: [...current] }));
    const candidates = [...forced, ...scored.filter((s) => !queued.includes(s.id) && !declined.includes(s.id))]
      .map((s) => ({ block: blocks.get(s.id)!, score: s.score, matched: s.matched }))
      .filter((c) => c.block);
    const injected = [...blocks.values()].filter((b) => b.injectedAt !== null);
    const selection = selectForInjection(
      candidates,
      { fingerprints: new Set(injected.map((b) => b.fingerprint)), tokenSets: injected.map((b) => this.tokenSet(`${b.title} ${b.body}`)) },
      this.tokenSet,
      { minScore: cfg.minScore, maxItems: cfg.maxItems, maxItemChars: cfg.maxItemChars, minItemChars: cfg.minItemChars, maxTokens: cfg.maxTokens, header: cfg.header, duplicateSimilarity: cfg.duplicateSimilarity },
    );
    const topScore = scored[0]?.score ?? 0;
    if (selection.items.length === 0) {
      const overBudget = selection.dropped.some((d) => d.reason === 'over-tokens');
      return none(overBudget ? 'over-budget' : 'no-match', topScore, selection.dropped);
    }
    const at = this.now().toISOString();
    if (!this.readOnly) await this.store.markInjected(selection.items.map((i) => i.id), at);
    for (const item of selection.items) {
      const block = blocks.get(item.id);
      if (block) block.injectedAt = at;
    }
    return { text: selection.text, tokens: selection.tokens, items: selection.items, dropped: selection.dropped, topScore, reason: '' };
  }

  /** Verbatim past turns (dialogue blocks) best matching `query`; the newest ones for an empty query. */
  async historyRead(scope: SessionScope, query: string, k = 3): Promise<HistoryReadResult> {
    await this.idle(scope); // an ingest in flight is part of the history
    const { scorer, blocks } = await this.scorerFor(scope);
    const dialogue = [...blocks.values()].filter((b) => b.kind === 'dialogue');
    let picked: StoredBlock[];
    if (collapseWhitespace(query) === '') picked = dialogue.slice(-k);
    else {
      picked = scorer
        .score(query, 50)
        .map((s) => blocks.get(s.id)!)
        .filter((b) => b && b.kind === 'dialogue')
        .slice(0, k);
    }
    const max = this.config.historyReadMaxChars;
    const turns: HistoryTurn[] = [];
    let used = 0;
    for (const b of picked) {
      const length = charLength(b.body);
      if (turns.length > 0 && used + length > max) break;
      turns.push({ id: b.id, title: b.title, compactionId: b.compactionId, seqStart: b.seqStart, seqEnd: b.seqEnd, body: b.body });
      used += length;
    }
    const omitted = picked.length - turns.length;
    const text =
      turns.length === 0
        ? '本会话被压缩的历史里没有找到匹配的对话。'
        : [
            ...turns.map((t, i) => `[${i + 1}] ${t.title}(压缩 ${t.compactionId},事件 ${t.seqStart ?? '?'}–${t.seqEnd ?? '?'})\n${t.body}`),
            ...(omitted > 0 ? [`(还有 ${omitted} 段匹配的对话因长度上限 ${max} 字未显示)`] : []),
          ].join('\n\n');
    return { turns, omitted, text };
  }

  /**
   * On demand ("look again"): local candidates; unless the local top is already strong (≥ 1.5 ×
   * minScore), a model rewrite of the question searches again; then a model verdict picks the one
   * strongly relevant block, or none. Without a model, the local hits above the threshold count.
   * What is found is injected with the session's next question.
   */
  async recheck(scope: SessionScope, query: string, mainRoute: AssistRoute | null = null): Promise<RecheckResult> {
    const cfg = this.config;
    await this.idle(scope);
    const { scorer, blocks } = await this.scorerFor(scope);
    const byId = new Map<string, ScoredBlock>();
    for (const s of scorer.score(query, 10)) byId.set(s.id, s);
    const localTop = Math.max(0, ...[...byId.values()].map((s) => s.score));
    const strong = localTop >= Math.max(cfg.minScore, cfg.minScore * 1.5) && localTop > 0;
    const route = this.assist.route(mainRoute);
    let rewrote = false;
    if (!strong && route) {
      const words = await this.assist.rewrite(route, query);
      if (words) {
        rewrote = true;
        for (const s of scorer.score(words.join(' '), 10)) if (!byId.has(s.id) || byId.get(s.id)!.score < s.score) byId.set(s.id, s);
      }
    }
    const top = [...byId.values()].sort((a, b) => b.score - a.score).slice(0, 5);
    const verdict = route ? await this.assist.verdict(route, query, top.map((s) => ({ title: blocks.get(s.id)!.title, excerpt: excerptAround(blocks.get(s.id)!.body, s.matched, 300) }))) : null;
    let found: ScoredBlock[];
    if (verdict === null) found = top.filter((s) => s.score >= cfg.minScore).slice(0, 1);
    else found = verdict === 0 ? [] : [top[verdict - 1]!];
    const picked = found.map((s) => s.id);
    // Without a verdict nothing was turned down: the local hits simply did not make the cut.
    const declined = verdict === null ? [] : top.map((s) => s.id).filter((id) => !picked.includes(id));
    if (picked.length > 0 || declined.length > 0) this.pending.set(scopeKey(scope), { picked, declined });
    return { found: found.length > 0, blocks: found.map((s) => ({ id: s.id, title: blocks.get(s.id)!.title, score: s.score })), skippedRewrite: strong && route !== null, rewrote, verdict };
  }

  /**
   * Remembers the session's last question for "look again" (the route has only the session id, and
   * after a host restart the plugin has seen no step of it). Written only for compacted sessions.
   */
  async rememberQuestion(scope: SessionScope, question: string, mainRoute: AssistRoute | null): Promise<void> {
    if (this.readOnly) return;
    await this.files.writeLookAgain(scope, { question, mainRoute, at: this.now().toISOString() });
  }

  /**
   * A compacted session found by its id alone: its scope (the newest workspace holding a compaction
   * of that id) and what was remembered for "look again"; null when no compaction of it is stored.
   */
  async lookAgainOf(sessionId: string): Promise<{ scope: SessionScope; question: string; mainRoute: AssistRoute | null } | null> {
    const session = (await this.store.sessions()).find((s) => s.sessionId === sessionId && s.compactions > 0);
    if (!session) return null;
    const scope = { workspace: session.workspace, sessionId };
    const saved = await this.files.readLookAgain(scope).catch(() => null);
    return { scope, question: saved?.question ?? '', mainRoute: saved?.mainRoute ?? null };
  }

  // Storage management.

  async listSessions(): Promise<SessionSummary[]> {
    await this.autoExpire();
    return this.store.sessions();
  }

  /**
   * Purges for good what has been in the trash longer than compaction.trashDays (0 = kept until
   * emptied by hand): the blocks, and the session folders trashed with them. One audit line per
   * session (and per leftover folder); the trash itself is how a delete stays restorable until then.
   */
  async expireTrash(): Promise<{ blocks: number; entries: number }> {
    const days = this.config.trashDays;
    if (days <= 0 || this.readOnly) return { blocks: 0, entries: 0 };
    const nowMs = this.now().getTime();
    const at = new Date(nowMs).toISOString();
    const before = new Date(nowMs - days * DAY_MS).toISOString();
    const why = `trashed before ${before} (compaction.trashDays ${days})`;
    const removed = new Set<string>();
    let blocks = 0;
    for (const expired of await this.store.expiredTrash(before)) {
      const scope = { workspace: expired.workspace, sessionId: expired.sessionId };
      blocks += await this.serial(scope, async () => {
        const count = await this.store.purgeTrashBefore(scope, before);
        const files: string[] = [];
        for (const trashedAt of expired.trashedAt) {
          const name = this.files.trashEntryName(scope, trashStamp(trashedAt));
          if (await this.files.purgeTrashEntry(name)) files.push(name);
        }
        for (const name of files) removed.add(name);
        const detail = files.length > 0 ? `${why}; files ${files.map((n) => `_trash/${n}`).join(', ')} removed` : why;
        await this.store.audit({ at, ...scope, action: 'purge', target: 'expired', count, detail });
        this.invalidate(scope);
        return count;
      });
    }
    // Folders whose blocks went already (purged by hand, or a session that had none).
    for (const name of await this.files.trashEntries()) {
      const trashedAt = trashedAtOf(name);
      if (removed.has(name) || trashedAt === null || trashedAt >= before) continue;
      if (!(await this.files.purgeTrashEntry(name))) continue;
      removed.add(name);
      await this.store.audit({ at, workspace: '', sessionId: '', action: 'purge', target: 'expired', count: 0, detail: `${why}; files _trash/${name} removed` });
    }
    return { blocks, entries: removed.size };
  }

  /** Starts expireTrash when the last automatic run is an hour old; failures are logged, never thrown. */
  private autoExpire(): Promise<unknown> {
    const nowMs = this.now().getTime();
    if (this.lastExpiry !== null && nowMs - this.lastExpiry < EXPIRY_EVERY_MS) return this.expiring;
    this.lastExpiry = nowMs;
    this.expiring = this.expireTrash().catch((error) => this.log('warn', `compaction trash expiry failed: ${errorText(error)}`));
    return this.expiring;
  }

  /** Resolves when the automatic trash expiry started last has finished. */
  async idleExpiry(): Promise<void> {
    await this.expiring;
  }

  listBlocks(scope: SessionScope, options: { trashed?: boolean } = {}): Promise<StoredBlock[]> {
    return this.store.blocks(scope, options);
  }

  runs(scope: SessionScope): Promise<RunRecord[]> {
    return this.store.runs(scope);
  }

  auditLog(scope: SessionScope | null = null, limit = 200): Promise<AuditEntry[]> {
    return this.store.auditLog(scope, limit);
  }

  rulesBook(scope: SessionScope): Promise<RuleEntry[]> {
    return this.files.readRules(scope);
  }

  archive(scope: SessionScope): Promise<ArchiveDoc> {
    return this.files.readArchive(scope);
  }

  /**
   * Deletes blocks (null = the whole session, its files included): into the trash when the trash is
   * on, for good otherwise. Audited either way.
   */
  remove(scope: SessionScope, ids: readonly string[] | null): Promise<number> {
    return this.serial(scope, async () => {
      if (this.readOnly) throw new Error('the database was written by a newer Engram and is open read-only');
      const at = this.now().toISOString();
      const target = ids === null ? 'session' : ids.join(',');
      let count: number;
      let detail = '';
      if (this.config.trash) {
        count = await this.store.trash(scope, ids, at);
        if (ids === null) {
          const entry = await this.files.trashSession(scope, trashStamp(at));
          if (entry) detail = `files → _trash/${entry}`;
        }
        await this.store.audit({ at, ...scope, action: 'trash', target, count, detail });
      } else {
        count = await this.store.purge(scope, ids, false);
        if (ids === null && (await this.files.removeSession(scope))) detail = 'files removed';
        await this.store.audit({ at, ...scope, action: 'delete', target, count, detail });
      }
      this.invalidate(scope);
      return count;
    });
  }

  /** Brings trashed blocks back (null = all of the session's; `trashEntry` restores its files too). */
  restore(scope: SessionScope, ids: readonly string[] | null, trashEntry?: string): Promise<number> {
    return this.serial(scope, async () => {
      if (this.readOnly) throw new Error('the database was written by a newer Engram and is open read-only');
      const at = this.now().toISOString();
      const count = await this.store.restore(scope, ids);
      const files = trashEntry ? await this.files.restoreSession(scope, trashEntry) : false;
      await this.store.audit({ at, ...scope, action: 'restore', target: ids === null ? 'session' : ids.join(','), count, detail: files ? `files ← _trash/${trashEntry}` : '' });
      this.invalidate(scope);
      return count;
    });
  }

  /** Empties the trash of a session (or some of its blocks; `trashEntry` removes those files). */
  purge(scope: SessionScope, ids: readonly string[] | null, trashEntry?: string): Promise<number> {
    return this.serial(scope, async () => {
      if (this.readOnly) throw new Error('the database was written by a newer Engram and is open read-only');
      const at = this.now().toISOString();
      const count = await this.store.purge(scope, ids, true);
      const files = trashEntry ? await this.files.purgeTrashEntry(trashEntry) : false;
      await this.store.audit({ at, ...scope, action: 'purge', target: ids === null ? 'session' : ids.join(','), count, detail: files ? `files _trash/${trashEntry} removed` : '' });
      this.invalidate(scope);
      return count;
    });
  }
}

/** The minor-rules book as shown once per window: most-hit first, within the token budget. */
export function renderRules(book: readonly RuleEntry[], maxTokens: number): string {
  if (book.length === 0 || maxTokens <= 0) return '';
  const sorted = [...book].sort((a, b) => b.hits - a.hits || (a.lastSeen < b.lastSeen ? 1 : a.lastSeen > b.lastSeen ? -1 : 0));
  const head = [`<${RULES_TAG}>`, '本会话从压缩摘要里自动归纳的次要规则(权限低于用户当前的指示;冲突时以用户为准):'];
  const lines: string[] = [];
  const render = (body: string[]) => [...head, ...body, `</${RULES_TAG}>`].join('\n');
  for (const rule of sorted) {
    const line = `- ${neutraliseDelimiters(clipChars(rule.text, 200))}${rule.hits > 1 ? `(×${rule.hits})` : ''}`;
    if (estimateTokens(render([...lines, line])) > maxTokens) break;
    lines.push(line);
  }
  return lines.length === 0 ? '' : render(lines);
}

/**
 * An archive section is read as all of a compaction's notes: one from a cut summary says it holds
 * the notes of the beginning only.
 */
function archiveTitle(title: string, summaryCutFrom: number | null, keptChars: number): string {
  return summaryCutFrom === null ? title : `${title}(摘要 ${summaryCutFrom} 字,只取前 ${keptChars} 字)`;
}

function shadowedSeqsOf(input: IngestInput): number[] {
  if (Array.isArray(input.shadowedSeqs) && input.shadowedSeqs.length > 0) return [...input.shadowedSeqs].filter((s) => typeof s === 'number').sort((a, b) => a - b);
  const range = input.shadowedRange;
  if (range && typeof range.start === 'number' && typeof range.end === 'number') {
    return input.events.filter((e) => e.seq >= range.start && e.seq <= range.end).map((e) => e.seq).sort((a, b) => a - b);
  }
  return [];
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
