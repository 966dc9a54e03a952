// Optional relevance judge: asks a chat model, one candidate per request, whether a statement
// "query and memory discuss the same topic" is true, and drops candidates under the threshold.
// It never adds, and any failure leaves the result as it was (applied: false, with the reason).
import type { EngramConfig } from '../config/schema.ts';
import { estimateTokens } from '../compaction/tokens.ts';
import { describeProxy, fetchForEnv, proxySettings } from '../net/proxy-fetch.ts';
import { hasUrlCredentials, urlCredentialsRefusal } from '../net/url-credentials.ts';
import type { Judge, JudgeVerdict } from '../recall/pipeline.ts';

type JudgeConfig = EngramConfig['judge'];

/** A statement to judge, not a question: chat models rate statements more sharply. */
export function judgeStatement(query: string, title: string, text: string): string {
  const memory = `${title}\n${text}`.slice(0, 1200);
  return `判断下面这个陈述是否为真,只回答「是」或「否」。\n陈述:用户的话「${query.slice(0, 400)}」与这条记忆讨论的是同一个主题。\n记忆:\n${memory}`;
}

/** P(yes) from the first answer token's top log-probabilities, else from the answer text. */
export function probabilityFromResponse(body: unknown): number | null {
  const choice = (body as { choices?: unknown[] })?.choices?.[0] as
    | { message?: { content?: unknown }; logprobs?: { content?: { top_logprobs?: { token?: unknown; logprob?: unknown }[] }[] } }
    | undefined;
  if (!choice) return null;
  const top = choice.logprobs?.content?.[0]?.top_logprobs;
  if (Array.isArray(top) && top.length > 0) {
    let yes = 0;
    let no = 0;
    for (const t of top) {
      if (typeof t.token !== 'string' || typeof t.logprob !== 'number') continue;
      const p = Math.exp(t.logprob);
      const tok = t.token.trim().toLowerCase();
      if (tok.startsWith('是') || tok === 'yes' || tok === 'true') yes += p;
      else if (tok.startsWith('否') || tok.startsWith('不') || tok === 'no' || tok === 'false') no += p;
    }
    if (yes + no > 0) return yes / (yes + no);
  }
  const content = choice.message?.content;
  if (typeof content !== 'string') return null;
  const s = content.trim().toLowerCase();
  if (/^(是|yes|true)/.test(s)) return 1;
  if (/^(否|不是|no|false)/.test(s)) return 0;
  return null;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(workers);
  return out;
}

export interface JudgeStatus {
  enabled: boolean;
  /** Why it is off, or why its last call failed. */
  reason: string | null;
  /** off: not configured; ready: configured, last call (if any) answered; failing: the last call did not. */
  state: 'off' | 'ready' | 'failing';
  /** Wall time of the last call (all candidates of one recall), ms. */
  lastLatencyMs: number | null;
  /** When the last call ended (ISO). */
  lastAt: string | null;
  /** The proxy its calls go through (scheme://host:port), or null. */
  proxy: string | null;
}

export const judgeOff = (reason: string): JudgeStatus => ({ enabled: false, reason, state: 'off', lastLatencyMs: null, lastAt: null, proxy: null });

/** Tokens of one answered request: the endpoint's own count when it gives one, else estimated. */
export function tokensOfExchange(statement: string, body: unknown): number {
  const usage = (body as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown } })?.usage;
  if (typeof usage?.total_tokens === 'number') return usage.total_tokens;
  if (typeof usage?.prompt_tokens === 'number') return usage.prompt_tokens + (typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 1);
  return estimateTokens(statement) + 1; // max_tokens is 1
}

/** Called once per request sent (answered or not): the console's per-day usage counts it. */
export type JudgeUsage = (calls: number, tokens: number) => void;

/** The one factory for the injection path and the debug path: they cannot disagree. */
export function createJudge(
  cfg: JudgeConfig,
  fetchImpl: typeof fetch = fetchForEnv(),
  env: Record<string, string | undefined> = process.env,
  onUsage: JudgeUsage = () => {},
): { judge: Judge | null; status: JudgeStatus } {
  // An endpoint set (from the environment, say) does not turn the judge on: each call costs a request.
  if (!cfg.enabled) return { judge: null, status: judgeOff(cfg.baseUrl ? '裁判的接口已设置，但 judge.enabled 为 false（在控制台设置或配置文件里打开）/ its endpoint is set but judge.enabled is false (turn it on in the console\'s settings or the config file)' : 'judge disabled') };
  if (!cfg.baseUrl || !cfg.model) return { judge: null, status: judgeOff('judge enabled but baseUrl or model is missing') };
  if (hasUrlCredentials(cfg.baseUrl)) return { judge: null, status: judgeOff(urlCredentialsRefusal('judge')) };
  const proxy = proxySettings(env);
  // Mutated by every call: the console and `engram status` read the judge's health from it.
  const status: JudgeStatus = { enabled: true, reason: null, state: 'ready', lastLatencyMs: null, lastAt: null, proxy: proxy ? describeProxy(proxy.httpsProxy ?? proxy.httpProxy ?? '') : null };
  const record = (started: number, failure: string | null) => {
    status.lastLatencyMs = Math.round(performance.now() - started);
    status.lastAt = new Date().toISOString();
    status.state = failure ? 'failing' : 'ready';
    status.reason = failure;
  };
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const ask = async (statement: string, signal: AbortSignal): Promise<number | null> => {
    let body: unknown = null;
    try {
      const res = await fetchImpl(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
        body: JSON.stringify({ model: cfg.model, messages: [{ role: 'user', content: statement }], max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 5 }),
        signal,
      });
      if (!res.ok) throw new Error(`judge endpoint answered HTTP ${res.status}`);
      body = await res.json();
      return probabilityFromResponse(body);
    } finally {
      try {
        onUsage(1, tokensOfExchange(statement, body));
      } catch {
        // Counting never decides a verdict.
      }
    }
  };
  const judge: Judge = async (query, candidates): Promise<JudgeVerdict> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), cfg.timeoutMs);
    const started = performance.now();
    try {
      const probs = await mapLimit(candidates, cfg.concurrency, (c) => ask(judgeStatement(query, c.title, c.text), controller.signal));
      if (probs.every((p) => p === null)) {
        record(started, 'the judge gave no usable verdict');
        return { applied: false, reason: 'the judge gave no usable verdict', dropped: [] };
      }
      record(started, null);
      const dropped = candidates
        .map((c, i) => ({ chunkId: c.chunkId, probability: probs[i] ?? null }))
        // A candidate without a verdict is kept: missing is unknown, not "irrelevant".
        .filter((d) => d.probability !== null && d.probability < cfg.threshold);
      return { applied: true, reason: null, dropped };
    } catch (e) {
      const msg = controller.signal.aborted ? `judge timed out after ${cfg.timeoutMs} ms` : `judge failed: ${e instanceof Error ? e.message : String(e)}`;
      const safe = msg.replaceAll(cfg.apiKey || '\u0000', '••••');
      record(started, safe);
      return { applied: false, reason: safe, dropped: [] };
    } finally {
      clearTimeout(timer);
    }
  };
  return { judge, status };
}
