// The compaction channel's messages: the host's user-message shape with a source that names this
// plugin and a form of its own (never 'recall', so the diary recall's dedupe and caps ignore them),
// plus the reading side: which of them the model still sees.
import { randomUUID } from 'node:crypto';
import type { SessionScope } from '@engram/engine';
import type { HostEvent, HostSession, UserMessage } from '../core/host-types.ts';
import { PLUGIN_ID, sourceOf, visibleEvents } from '../sessions/view.ts';

/** overview and rules: once per compaction window; recall: stored blocks for a question. */
export type CompactionForm = 'compaction-overview' | 'compaction-rules' | 'compaction-recall';

export function compactionMessage(form: CompactionForm, text: string, extra: Record<string, unknown> = {}): UserMessage {
  return {
    id: `${PLUGIN_ID}-${form}-${randomUUID()}`,
    role: 'user',
    content: [{ type: 'text', text }],
    source: { ...extra, kind: 'plugin', plugin: PLUGIN_ID, form },
  };
}

/** Sources of this plugin's compaction messages of one form that the model still sees. */
export function visibleCompactionSources(events: readonly HostEvent[], form: CompactionForm): Record<string, unknown>[] {
  return visibleEvents(events)
    .filter((e) => e.type === 'user/message')
    .map((e) => sourceOf(e.data))
    .filter((s): s is NonNullable<typeof s> => s?.kind === 'plugin' && s.plugin === PLUGIN_ID && s.form === form);
}

/** Memory is kept per workspace (the session's cwd) and session. */
export const scopeOf = (session: HostSession): SessionScope => ({ workspace: session.header.cwd ?? '', sessionId: session.header.id });
