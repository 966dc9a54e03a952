// Reading a session the way the plugin needs it: its events whatever the host generation calls
// them, the part of the history the model still sees, and which messages are the person's or ours.
import type { ContentBlock, HostEvent, HostSession, MessageSource, UserMessage } from '../core/host-types.ts';

/** `source.plugin` on every message this plugin injects. */
export const PLUGIN_ID = 'engram';

export type InjectedForm = 'recall' | 'instructions' | 'notice';

/** Newer hosts expose `snapshotEvents()`, rc.8 an `events` getter; either may be missing. */
export function sessionEvents(session: HostSession | undefined): readonly HostEvent[] {
  if (!session) return [];
  if (typeof session.snapshotEvents === 'function') {
    const events = session.snapshotEvents();
    return Array.isArray(events) ? events : [];
  }
  const events = session.events;
  return Array.isArray(events) ? events : [];
}

export const isSubagent = (session: HostSession | undefined): boolean => session?.header?.origin === 'subagent';

/** The text blocks of some content joined by a blank line (the host's own rendering). */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as ContentBlock[])
    .filter((b) => b?.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n\n');
}

/**
 * Events still in the model-visible history: compaction folds earlier events into a summary
 * (`compaction/summary.shadowedSeqs`, and the replacing message's `surfaceOp` range).
 */
export function visibleEvents(events: readonly HostEvent[]): HostEvent[] {
  const shadowed = new Set<number>();
  const ranges: { start: number; end: number; before: number }[] = [];
  for (const event of events) {
    if (event?.type === 'compaction/summary' && Array.isArray(event.data?.shadowedSeqs)) {
      for (const seq of event.data.shadowedSeqs) if (typeof seq === 'number') shadowed.add(seq);
    }
    if (event?.surfaceOp?.op === 'replace') ranges.push({ start: event.surfaceOp.start, end: event.surfaceOp.end, before: event.seq });
  }
  return events.filter(
    (event) => !shadowed.has(event.seq) && !ranges.some((r) => event.seq < r.before && event.seq >= r.start && event.seq <= r.end),
  );
}

export const sourceOf = (message: unknown): MessageSource | undefined => {
  const source = (message as { source?: unknown } | null | undefined)?.source;
  return source !== null && typeof source === 'object' ? (source as MessageSource) : undefined;
};

/** Only a person's message is a query; host snapshots, plugin text and relays are not. */
export const isPersonMessage = (message: unknown): boolean => sourceOf(message)?.kind === 'user';

export function isOwnMessage(message: unknown, form?: InjectedForm): boolean {
  const source = sourceOf(message);
  return source?.kind === 'plugin' && source.plugin === PLUGIN_ID && (form === undefined || source.form === form);
}

/** Our injected messages of one form still visible to the model, oldest first. */
export function visibleOwnMessages(events: readonly HostEvent[], form: InjectedForm): UserMessage[] {
  return visibleEvents(events)
    .filter((e) => e.type === 'user/message' && isOwnMessage(e.data, form))
    .map((e) => e.data as UserMessage);
}

export interface PersonMessage {
  /** The message id: what "a new user message" is decided by. */
  key: string;
  text: string;
}

export function personMessageOf(message: unknown): PersonMessage | null {
  if (!isPersonMessage(message)) return null;
  const m = message as { id?: unknown; content?: unknown };
  const text = textOfContent(m.content).trim();
  if (typeof m.id !== 'string' || m.id === '') return null;
  return { key: m.id, text };
}

/** The person's newest message in a list (the pre-step payload, before it is recorded). */
export function lastPersonMessage(messages: readonly unknown[]): PersonMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const person = personMessageOf(messages[i]);
    if (person) return person;
  }
  return null;
}

/** The person's recorded messages in the session's events, newest first. */
function* recordedPersonMessages(events: readonly HostEvent[]): Generator<PersonMessage> {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type !== 'user/message') continue;
    const person = personMessageOf(event.data);
    if (person) yield person;
  }
}

/** The person's message before the one with `key` (the newest recorded one when `key` is not recorded yet). */
export function personMessageBefore(events: readonly HostEvent[], key: string | undefined): PersonMessage | null {
  const people = [...recordedPersonMessages(events)];
  const at = key === undefined ? -1 : people.findIndex((p) => p.key === key);
  return people.slice(at + 1).find((p) => p.text !== '') ?? null;
}

/** The person's newest recorded message in the session's events. */
export function lastRecordedPersonMessage(events: readonly HostEvent[]): PersonMessage | null {
  for (const person of recordedPersonMessages(events)) return person;
  return null;
}
