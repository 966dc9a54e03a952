// A probe plugin that writes one timeline of session events and waterfall/serial hook calls, so a
// test can compare the host's order with the contract's.
import type { EventEnvelope, PluginModule } from '../src/index.ts';

export function timelineProbe(timeline: string[], name = 'probe'): PluginModule {
  return {
    name,
    inject: ['systemPrompt'],
    apply(ctx) {
      ctx.on('session/event', (_session: unknown, event: EventEnvelope) => {
        const label = event.type === 'user/message' ? `user/message:${event.data.source.kind}${event.data.source.form ? `:${event.data.source.form}` : ''}` : event.type;
        // Chunks come in bursts; one entry per burst keeps the expected order readable.
        if (label === 'assistant/chunk' && timeline.at(-1) === 'assistant/chunk…') return;
        timeline.push(label === 'assistant/chunk' ? 'assistant/chunk…' : label);
      });
      ctx.on('system-prompt/assemble', async (_assembly: unknown, _context: unknown, next: () => Promise<unknown>) => {
        timeline.push('[assemble]');
        return next();
      });
      ctx.on('agent/pre-step', async (payload: { step: number }, next: () => Promise<unknown>) => {
        timeline.push(`[pre-step ${payload.step}]`);
        return next();
      });
      ctx.on('agent/turn-stopping', () => {
        timeline.push('[turn-stopping]');
      });
    },
  };
}

export const todoCall = (todos: { content: string; status: string }[]) => ({ toolCalls: [{ name: 'todo_write', arguments: { todos } }] });
