// The host's model service as the engine's `Complete`: one streamed call, the text deltas joined
// (reasoning deltas are not the answer), the stream's usage chunk passed on as the call's token
// count. No retry here: the engine's gates decide about failures.
import type { Complete } from '@engram/engine';
import type { HostEvent } from '../core/host-types.ts';

export interface LlmService {
  stream(request: { provider: string; model: string; messages: { role: string; content: unknown }[]; system?: string; maxTokens?: number; signal?: AbortSignal }): AsyncIterable<{ type: string; text?: string; usage?: unknown }>;
}

/** Input + output tokens of a usage chunk (`{ inputTokens, outputTokens }`), or null when it has neither. */
export function usageTokens(usage: unknown): number | null {
  const u = usage as { inputTokens?: unknown; outputTokens?: unknown } | null | undefined;
  const input = typeof u?.inputTokens === 'number' && Number.isFinite(u.inputTokens) ? u.inputTokens : null;
  const output = typeof u?.outputTokens === 'number' && Number.isFinite(u.outputTokens) ? u.outputTokens : null;
  return input === null && output === null ? null : (input ?? 0) + (output ?? 0);
}

export function completeThrough(llm: () => LlmService | null): Complete {
  return async ({ route, system, prompt, maxTokens, signal, onUsage }) => {
    const service = llm();
    if (!service) throw new Error('llm service not registered on this host (provider unavailable)');
    let text = '';
    for await (const chunk of service.stream({ provider: route.provider, model: route.model, system, maxTokens, signal, messages: [{ role: 'user', content: prompt }] })) {
      if (chunk?.type === 'text-delta' && typeof chunk.text === 'string') text += chunk.text;
      else if (chunk?.type === 'usage') {
        // The last report counts (a provider may send running totals).
        const tokens = usageTokens(chunk.usage);
        if (tokens !== null) onUsage?.(tokens);
      }
    }
    if (text.trim() === '') throw new Error('the model answered with no text (only reasoning?)');
    return text;
  };
}

/** The session's own model: the last routing record (`request/context`) or compaction's model. */
export function mainRouteOf(events: readonly HostEvent[]): { provider: string; model: string } | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if ((e.type === 'request/context' || e.type === 'compaction/summary') && typeof e.data?.provider === 'string' && typeof e.data?.model === 'string') {
      return { provider: e.data.provider, model: e.data.model };
    }
  }
  return null;
}
