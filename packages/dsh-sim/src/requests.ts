// Judging recorded requests the way a prefix cache would. A provider's cache reuses the longest
// identical prefix: system prompt, tool list, then messages in order. A request is cache-friendly
// when everything before its newest message is what the previous request of the same session
// already sent at those positions.
import type { RecordedRequest, RequestMessage } from './types.ts';

export interface PrefixBreak {
  /** Index in the given request list. */
  index: number;
  sessionId: string;
  turn: number;
  step: number;
  reason: 'system' | 'tools' | 'message';
  /** For 'message': the first position that differs. */
  position?: number;
}

export interface PrefixStability {
  /** Stable comparisons / all comparisons (1 when there is nothing to compare). */
  share: number;
  compared: number;
  stable: number;
  breaks: PrefixBreak[];
}

export function serialiseMessage(message: RequestMessage): string {
  return JSON.stringify([message.role, message.content, message.source ?? null, message.toolCalls ?? null, message.callId ?? null, message.name ?? null]);
}

/** Compares each request with the previous request of the same session. */
export function prefixStability(requests: readonly RecordedRequest[]): PrefixStability {
  const previous = new Map<string, RecordedRequest>();
  const breaks: PrefixBreak[] = [];
  let compared = 0;
  requests.forEach((request, index) => {
    const before = previous.get(request.sessionId);
    previous.set(request.sessionId, request);
    if (!before) return;
    compared++;
    const at = { index, sessionId: request.sessionId, turn: request.turn, step: request.step };
    if (request.system !== before.system) return void breaks.push({ ...at, reason: 'system' });
    if (JSON.stringify(request.tools) !== JSON.stringify(before.tools)) return void breaks.push({ ...at, reason: 'tools' });
    const span = Math.min(before.messages.length, request.messages.length - 1);
    for (let position = 0; position < span; position++) {
      if (serialiseMessage(request.messages[position]!) !== serialiseMessage(before.messages[position]!)) {
        return void breaks.push({ ...at, reason: 'message', position });
      }
    }
  });
  return { share: compared === 0 ? 1 : (compared - breaks.length) / compared, compared, stable: compared - breaks.length, breaks };
}

export function prefixStableShare(requests: readonly RecordedRequest[]): number {
  return prefixStability(requests).share;
}

export function systemPromptsIdentical(requests: readonly RecordedRequest[]): boolean {
  return requests.every((request) => request.system === requests[0]?.system);
}
