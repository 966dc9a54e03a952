// Optional model assistance (off by default): keywords for dialogue blocks at ingest, and on demand
// a query rewrite plus a strong-relevance verdict. Never on the question's hot path. Every call goes
// through four gates — mode, cooldown after a failure, the daily cap (0 = unlimited), the 30-day
// cache — and a timeout; any failure is logged and answered with null, which callers treat exactly
// like "the feature is off". Prompts and output parsing are pure and exported for tests.
import { createHash } from 'node:crypto';
import type { EngramConfig } from '../config/schema.ts';
import { silentLogger, type Logger } from '../log.ts';
import { estimateTokens } from './tokens.ts';
import type { CompactionStore } from './store.ts';

export type AssistPath = 'ingest' | 'search';
type AssistConfig = EngramConfig['compaction']['assist'];

export interface AssistRoute {
  provider: string;
  model: string;
}

export interface CompletionRequest {
  route: AssistRoute;
  system: string;
  prompt: string;
  maxTokens: number;
  signal: AbortSignal;
  /**
   * Told the provider's token count of the call (input + output, reasoning included) when the model
   * service reports one; the usage count then prefers it to the estimate.
   */
  onUsage?: (tokens: number) => void;
}

/** The host's model service, adapted by the plugin: the reply's text. */
export type Complete = (request: CompletionRequest) => Promise<string>;

export const KEYWORD_BATCH = 8;
export const KEYWORD_INPUT_CHARS = 600;
export const KEYWORD_MAX_TOKENS = 240;
export const REWRITE_MAX_TOKENS = 120;
export const VERDICT_MAX_TOKENS = 40;
export const CACHE_MAX_ENTRIES = 200;
const MINUTE = 60_000;

/** Rate/quota failures pause a path 10 minutes, provider/credential failures 30, anything else 1. */
export function cooldownMs(error: unknown): number {
  const text = String((error as { message?: unknown })?.message ?? error).toLowerCase();
  if (/rate|429|quota|too many|limit/.test(text)) return 10 * MINUTE;
  if (/provider|credential|api key|apikey|auth|401|403|not registered|unknown model|needs a model/.test(text)) return 30 * MINUTE;
  return MINUTE;
}

/** The first JSON object in a reply (models wrap it in prose or code fences), or null. */
export function firstJsonObject(text: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
}

const shortWords = (value: unknown, max: number): string[] | null => {
  if (!Array.isArray(value)) return null;
  const words = value.filter((w): w is string => typeof w === 'string').map((w) => w.trim()).filter((w) => w !== '' && Array.from(w).length <= 24);
  return words.length === value.length ? words.slice(0, max) : null;
};

export function keywordPrompt(blocks: readonly { title: string; body: string }[]): string {
  const items = blocks.map((b, i) => `[${i + 1}] ${b.title}\n${Array.from(b.body).slice(0, KEYWORD_INPUT_CHARS).join('')}`);
  return [
    '下面是一段对话历史被压缩前的若干片段。为每个片段给出 3~6 个「以后有人可能怎么问到这段内容」的短检索词(同义词、别名、英文写法都可以)。',
    `只输出 JSON,形如 {"1":["词","词"],"2":[...]},键是片段编号,共 ${blocks.length} 个。`,
    '',
    ...items,
  ].join('\n');
}

/** Keywords per block, or null when the reply is not exactly the asked shape (the batch is dropped). */
export function parseKeywords(reply: string, count: number): string[][] | null {
  const value = firstJsonObject(reply);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const out: string[][] = [];
  for (let i = 1; i <= count; i++) {
    const words = shortWords((value as Record<string, unknown>)[String(i)], 8);
    if (!words) return null;
    out.push(words);
  }
  return out;
}

export const rewritePrompt = (query: string): string =>
  ['把下面这个问题改写成 3~8 个用于检索对话历史的关键词(同义词、别名、当时可能的原话)。只输出 JSON:{"keywords":["词",...]}', '', `问题:${query}`].join('\n');

export function parseRewrite(reply: string): string[] | null {
  const value = firstJsonObject(reply) as { keywords?: unknown } | null;
  const words = shortWords(value?.keywords, 8);
  return words && words.length > 0 ? words : null;
}

export function verdictPrompt(query: string, candidates: readonly { title: string; excerpt: string }[]): string {
  return [
    '用户的问题和几段被压缩掉的历史如下。哪一段是「强相关」的——知道它会改变对这个问题的回答,而不只是有点关系?',
    '只回一个编号;都不强相关就回 0(这是允许的,不要硬挑)。只输出 JSON:{"pick":编号}',
    '',
    `问题:${query}`,
    '',
    ...candidates.map((c, i) => `[${i + 1}] ${c.title}\n${c.excerpt}`),
  ].join('\n');
}

export function parseVerdict(reply: string, count: number): number | null {
  const value = firstJsonObject(reply) as { pick?: unknown } | null;
  const pick = typeof value?.pick === 'string' ? Number(value.pick) : value?.pick;
  return typeof pick === 'number' && Number.isInteger(pick) && pick >= 0 && pick <= count ? pick : null;
}

export interface ModelAssistDeps {
  complete: Complete | null;
  store: CompactionStore;
  config(): AssistConfig;
  now(): Date;
  log?: Logger;
}

export class ModelAssist {
  private readonly pausedUntil: Record<AssistPath, number> = { ingest: 0, search: 0 };
  private readonly log: Logger;

  constructor(private readonly deps: ModelAssistDeps) {
    this.log = deps.log ?? silentLogger;
  }

  /** The route for a call, or null when assistance is off or not configured. */
  route(mainRoute: AssistRoute | null | undefined): AssistRoute | null {
    const config = this.deps.config();
    if (!this.deps.complete) return null;
    if (config.mode === 'main') return mainRoute && mainRoute.provider && mainRoute.model ? mainRoute : null;
    if (config.mode === 'model') return config.provider && config.model ? { provider: config.provider, model: config.model } : null;
    return null;
  }

  /** Why a path is unavailable right now ('' when it is available). */
  async blocked(path: AssistPath): Promise<string> {
    const config = this.deps.config();
    const now = this.deps.now().getTime();
    if (this.pausedUntil[path] > now) return `cooling down until ${new Date(this.pausedUntil[path]).toISOString()}`;
    if (config.dailyCap > 0 && (await this.deps.store.usage(dayOf(this.deps.now()))).calls >= config.dailyCap) return `daily cap of ${config.dailyCap} calls reached`;
    return '';
  }

  private async call(path: AssistPath, route: AssistRoute, prompt: string, maxTokens: number, cache: boolean): Promise<string | null> {
    const config = this.deps.config();
    const now = this.deps.now();
    const key = createHash('sha1').update(JSON.stringify([path, route.provider, route.model, prompt])).digest('hex');
    const notBefore = new Date(now.getTime() - config.cacheDays * 24 * 60 * MINUTE).toISOString();
    if (cache && config.cacheDays > 0) {
      const hit = await this.deps.store.cacheGet(key, notBefore);
      if (hit !== null) return hit;
    }
    const blocked = await this.blocked(path);
    if (blocked) {
      this.log('info', `compaction assist ${path}: skipped, ${blocked}`);
      return null;
    }
    const timeoutMs = path === 'ingest' ? config.ingestTimeoutMs : config.searchTimeoutMs;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    let reported: number | null = null;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(new Error(`timed out after ${timeoutMs} ms`));
          reject(new Error(`timed out after ${timeoutMs} ms`));
        }, timeoutMs);
      });
      const onUsage = (tokens: number) => (reported = tokens);
      const reply = await Promise.race([this.deps.complete!({ route, system: '你是检索助手,只按要求输出 JSON。', prompt, maxTokens, signal: controller.signal, onUsage }), timeout]);
      await this.deps.store.addUsage(dayOf(now), 1, reported ?? estimateTokens(prompt) + estimateTokens(reply));
      this.log('info', `compaction assist ${path}: ok in ${Date.now() - started} ms (${route.provider}/${route.model})`);
      if (cache && config.cacheDays > 0) await this.deps.store.cachePut(key, reply, now.toISOString(), notBefore, CACHE_MAX_ENTRIES);
      return reply;
    } catch (error) {
      const pause = cooldownMs(error);
      this.pausedUntil[path] = this.deps.now().getTime() + pause;
      this.log('warn', `compaction assist ${path} failed, paused ${Math.round(pause / MINUTE)} min: ${(error as Error)?.message ?? error}`);
      await this.deps.store.addUsage(dayOf(now), 1, reported ?? estimateTokens(prompt)).catch(() => {});
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Extra keywords per block (null entries where a batch failed). */
  async keywords(route: AssistRoute, blocks: readonly { title: string; body: string }[]): Promise<(string[] | null)[]> {
    const out: (string[] | null)[] = [];
    for (let i = 0; i < blocks.length; i += KEYWORD_BATCH) {
      const batch = blocks.slice(i, i + KEYWORD_BATCH);
      const reply = await this.call('ingest', route, keywordPrompt(batch), KEYWORD_MAX_TOKENS, false);
      const parsed = reply === null ? null : parseKeywords(reply, batch.length);
      if (reply !== null && parsed === null) this.log('warn', 'compaction assist ingest: reply not in the asked shape, batch dropped');
      for (let j = 0; j < batch.length; j++) out.push(parsed?.[j] ?? null);
    }
    return out;
  }

  async rewrite(route: AssistRoute, query: string): Promise<string[] | null> {
    const reply = await this.call('search', route, rewritePrompt(query), REWRITE_MAX_TOKENS, true);
    return reply === null ? null : parseRewrite(reply);
  }

  /** 1-based pick, 0 = nothing strongly relevant, null = no verdict (off or failed). */
  async verdict(route: AssistRoute, query: string, candidates: readonly { title: string; excerpt: string }[]): Promise<number | null> {
    if (candidates.length === 0) return 0;
    const reply = await this.call('search', route, verdictPrompt(query, candidates), VERDICT_MAX_TOKENS, false);
    return reply === null ? null : parseVerdict(reply, candidates.length);
  }
}

/** Local calendar day, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
