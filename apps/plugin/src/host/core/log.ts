// Logging: one line per recall that says why it ran, what it asked, for which message, what came
// back and what the gates removed. "0 hits" alone cannot tell a wrong trigger from an empty corpus.
import { rootReason, type RecallResult } from '@engram/engine';
import type { HostContext, HostLogger } from './host-types.ts';
import type { Trigger } from '../recall/freeze.ts';

const noop = () => {};
export const silentHostLogger: HostLogger = { info: noop, warn: noop, error: noop, debug: noop };

export function loggerOf(ctx: HostContext, name: string): HostLogger {
  const factory = ctx.logger;
  if (typeof factory === 'function') return factory(name);
  if (factory && typeof factory.info === 'function') return factory;
  return silentHostLogger;
}

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export interface RecallLogInput {
  sessionId: string;
  trigger: Trigger;
  result: RecallResult;
  mode: string;
  ms?: number;
  /** Why this recall ran lexical only (the model still loading), when it did. */
  lexical?: string | null;
}

const SINGLE_CJK = /^[\u3400-\u9fff\uf900-\ufaff]$/u;
/** Above this share of single characters among the injected hits' matched words, the line warns (pitfall 11 of the design: hits that rest on 了/的/上 look random). */
const SINGLE_CHAR_WARNING = 0.5;

/** Candidates per channel and after fusion: whether the semantic channel ran and what each brought. */
function candidatesPart(result: RecallResult): string {
  const fused = result.explain.stages.find((s) => s.name === 'fuse')?.kept ?? 0;
  return `candidates=lexical:${result.explain.lexical.candidates},semantic:${result.explain.semantic.ran ? result.explain.semantic.candidates : '-'},fused:${fused}`;
}

/** The share of single CJK characters among the matched words of the injected hits (null without matches). */
export function singleCharShare(result: RecallResult): number | null {
  let all = 0;
  let single = 0;
  for (const h of result.hits)
    for (const m of h.matched) {
      all++;
      if (SINGLE_CJK.test(m.token)) single++;
    }
  return all === 0 ? null : single / all;
}

/** `recall first-turn session=s1 user=msg-1 query(6)="周报怎么写?" hits=1 [...] gated=1 {...} distinctive=[周报]`. */
export function formatRecallLog({ sessionId, trigger, result, mode, ms, lexical }: RecallLogInput): string {
  const hits = result.hits.map((h) => `${h.date} ${clip(h.title, 40)}`).join(' | ');
  const gate = result.explain.gate;
  const byGate = Object.entries(gate.byGate)
    .map(([name, n]) => `${name}:${n}`)
    .join(',');
  const removals = gate.removals
    .slice(0, 5)
    .map((r) => `${clip(r.title, 30)}: ${r.gate}`)
    .concat(gate.removals.length > 5 ? [`+${gate.removals.length - 5} more`] : [])
    .join(' | ');
  const parts = [
    `recall ${trigger.kind}`,
    `session=${sessionId}`,
    `mode=${mode}`,
    trigger.userKey ? `user=${trigger.userKey}` : 'user=-',
    `query(${trigger.query.length})="${clip(trigger.query, 80)}"`,
    `hits=${result.hits.length}${hits ? ` [${hits}]` : ''}`,
    `gated=${gate.removed}${byGate ? ` {${byGate}}` : ''}${removals ? ` [${removals}]` : ''}`,
    `distinctive=[${gate.distinctiveTokens.join(',')}]`,
    candidatesPart(result),
  ];
  const single = singleCharShare(result);
  if (single !== null && single > SINGLE_CHAR_WARNING) parts.push(`warning=single-char-matches:${Math.round(single * 100)}%`);
  if (gate.noDistinctiveTokens) parts.push('no-distinctive-term');
  if (lexical) parts.push(`lexical="${clip(lexical, 80)}"`);
  else if (result.explain.semantic.skipped) parts.push(`semantic-skipped="${clip(result.explain.semantic.skipped, 60)}"`);
  if (result.explain.maxChars.truncatedItems > 0) parts.push(`truncated=${result.explain.maxChars.truncatedItems}`);
  if (ms !== undefined) parts.push(`ms=${Math.round(ms)}`);
  if (result.hits.length === 0) parts.push('(zero hits: not frozen, the next trigger may retry)');
  return parts.join(' ');
}

/**
 * An error as one line: `[code] message`, and what caused it when that says more (drizzle keeps
 * SQLite's own words — SQLITE_CORRUPT, not a database — in the cause of "Failed query: …").
 */
export const errorText = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const head = typeof code === 'string' ? `[${code}] ${message}` : message;
  // The chain's innermost message (the error's own when nothing caused it: then it adds nothing).
  const why = rootReason(error);
  return why && !message.includes(why) ? `${head} — ${why}` : head;
};
