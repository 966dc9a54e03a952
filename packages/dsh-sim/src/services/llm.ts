// `ctx.llm.stream(...)`: what a plugin uses for its own model calls (summaries, judging). The test
// scripts the replies; every call is recorded. Like the host, nothing here retries, caches or
// rate-limits, and a missing provider/model is an error rather than a silent default.
import type { Context, ServiceProvider } from '../context.ts';
import type { StreamChunk, Usage } from '../types.ts';

export interface LlmMessage {
  role: string;
  content: unknown;
}

export interface LlmRequest {
  provider: string;
  model: string;
  messages: LlmMessage[];
  system?: string;
  maxTokens?: number;
  signal?: AbortSignal;
}

/** A recorded call, without the signal. */
export type LlmCall = Omit<LlmRequest, 'signal'> & { owner: string };

export interface LlmReply {
  text?: string;
  reasoning?: string;
  usage?: Usage;
  /** Fail the stream after the text (a mid-stream provider error). */
  error?: Error;
}

/** Returns the reply text, a reply object, or throws (the stream then fails before any chunk). */
export type LlmResponder = (call: LlmCall) => string | LlmReply | Promise<string | LlmReply>;

const noResponder: LlmResponder = (call) => {
  throw new Error(`llm.stream called (${call.provider}/${call.model}) but the test scripted no llm responder`);
};

/** Splits text in two deltas so consumers that only read the first delta are caught. */
export function replyChunks(reply: LlmReply): StreamChunk[] {
  const chunks: StreamChunk[] = [];
  let index = 0;
  if (reply.reasoning) {
    chunks.push({ type: 'block-start', index, blockType: 'reasoning' });
    chunks.push({ type: 'reasoning-delta', index, text: reply.reasoning });
    chunks.push({ type: 'block-end', index, block: { type: 'reasoning', text: reply.reasoning } });
    index++;
  }
  const text = reply.text ?? '';
  if (text.length > 0) {
    const cut = Math.ceil(text.length / 2);
    chunks.push({ type: 'block-start', index, blockType: 'text' });
    chunks.push({ type: 'text-delta', index, text: text.slice(0, cut) });
    if (cut < text.length) chunks.push({ type: 'text-delta', index, text: text.slice(cut) });
    chunks.push({ type: 'block-end', index, block: { type: 'text', text } });
  }
  chunks.push({ type: 'usage', usage: reply.usage ?? { inputTokens: 0, outputTokens: Math.ceil(text.length / 2) } });
  chunks.push({ type: 'finish', reason: { kind: 'stop' } });
  return chunks;
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : Object.assign(new Error('aborted'), { name: 'AbortError' });
}

export class LlmService implements ServiceProvider {
  readonly calls: LlmCall[] = [];
  responder: LlmResponder = noResponder;

  stream(request: LlmRequest, owner = '<host>'): AsyncIterable<StreamChunk> {
    if (typeof request?.provider !== 'string' || request.provider === '') throw new TypeError('llm.stream needs a provider');
    if (typeof request.model !== 'string' || request.model === '') throw new TypeError('llm.stream needs a model');
    if (!Array.isArray(request.messages)) throw new TypeError('llm.stream needs messages: [{ role, content }]');
    const { signal, ...rest } = request;
    const call: LlmCall = { ...structuredClone(rest), owner };
    this.calls.push(call);
    const responder = this.responder;
    return (async function* () {
      if (signal?.aborted) throw abortError(signal);
      const raw = await responder(call);
      const reply: LlmReply = typeof raw === 'string' ? { text: raw } : raw;
      for (const chunk of replyChunks(reply)) {
        if (signal?.aborted) throw abortError(signal);
        if (chunk.type === 'usage' && reply.error) throw reply.error;
        yield chunk;
      }
    })();
  }

  facade(ctx: Context) {
    return { stream: (request: LlmRequest) => this.stream(request, ctx.name) };
  }
}
