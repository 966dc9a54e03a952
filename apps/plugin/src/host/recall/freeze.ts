// When to recall. Pure: given a session's events, the person's message the current step carries
// (not recorded yet at step 1) and what this session already consumed, say whether a recall is due
// and with which query. Everything else reuses the frozen result, so a coding session where the
// model works for fifty steps without the person speaking recalls once.
import type { HostEvent } from '../core/host-types.ts';
import { lastRecordedPersonMessage, type PersonMessage } from '../sessions/view.ts';

export type TriggerKind = 'first-turn' | 'user-message' | 'phase-change';

export interface Trigger {
  kind: TriggerKind;
  query: string;
  /** Message id of the person's message (user triggers). */
  userKey?: string;
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed' | 'other';

export interface TodoItem {
  text: string;
  status: TodoStatus;
}

export interface TodoSnapshot {
  /** Where the list came from; null when no todo list could be read. */
  source: 'todo/write' | 'tool/call' | null;
  items: TodoItem[];
  completed: number;
  /** Texts of the items in progress: the phase-change query. */
  inProgress: string[];
}

export interface FreezeState {
  /** Person messages already answered by a recall (or a zero-hit attempt), newest last. */
  consumed: string[];
  /** Completed-todo count when last looked at; null before the first look. */
  completedSeen: number | null;
  /** Whether a recall ever produced hits in this session (frozen at least once). */
  frozen: boolean;
}

export interface FreezeOptions {
  onUserMessage: boolean;
  onTodoCheck: boolean;
}

export const emptyFreezeState = (): FreezeState => ({ consumed: [], completedSeen: null, frozen: false });

const EMPTY_TODOS: TodoSnapshot = { source: null, items: [], completed: 0, inProgress: [] };
const TODO_TOOL = /^todo[_-]?write$/i;
const MAX_CONSUMED = 256;

function statusOf(value: unknown): TodoStatus {
  if (typeof value !== 'string') return 'other';
  const s = value.toLowerCase().replace(/-/g, '_');
  if (s === 'completed' || s === 'done') return 'completed';
  if (s === 'in_progress' || s === 'active' || s === 'doing') return 'in_progress';
  if (s === 'pending' || s === 'todo') return 'pending';
  return 'other';
}

/** Todo items accept `content`, `text` or `title`; items without any are skipped. */
export function todoItemsOf(list: unknown): TodoItem[] | null {
  if (!Array.isArray(list)) return null;
  const items: TodoItem[] = [];
  for (const raw of list) {
    if (raw === null || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const text = [item.content, item.text, item.title].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    if (text === undefined) continue;
    items.push({ text: text.trim(), status: statusOf(item.status) });
  }
  return items;
}

function snapshotOf(items: TodoItem[], source: TodoSnapshot['source']): TodoSnapshot {
  return {
    source,
    items,
    completed: items.filter((i) => i.status === 'completed').length,
    inProgress: items.filter((i) => i.status === 'in_progress').map((i) => i.text),
  };
}

/** `tool/call.data.arguments` is a raw JSON string; only an object with a `todos` array counts. */
export function todosFromToolArguments(args: unknown): TodoItem[] | null {
  let parsed: unknown = args;
  if (typeof args === 'string') {
    const trimmed = args.trim();
    if (!trimmed.startsWith('{')) return null;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      return null;
    }
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return todoItemsOf((parsed as { todos?: unknown }).todos);
}

/**
 * The session's current todo list: the newest `todo/write` event (the host's normalised array) when
 * there is one, else the newest parseable `todo_write` tool call. Malformed input reads as no list.
 */
export function readTodos(events: readonly HostEvent[]): TodoSnapshot {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type !== 'todo/write') continue;
    const items = todoItemsOf(event.data?.todos);
    if (items) return snapshotOf(items, 'todo/write');
  }
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type !== 'tool/call' || typeof event.data?.name !== 'string' || !TODO_TOOL.test(event.data.name)) continue;
    const items = todosFromToolArguments(event.data.arguments);
    if (items) return snapshotOf(items, 'tool/call');
  }
  return EMPTY_TODOS;
}

export interface TriggerInput {
  events: readonly HostEvent[];
  /** The person's message in this step's pre-step payload (step 1), which the events do not hold yet. */
  live?: PersonMessage | null;
  state: FreezeState;
  options: FreezeOptions;
  /**
   * Only look at todo progress. For callers that run before the step's pre-step (the assemble
   * waterfall on rc.8): they cannot see the person's new message, only the previous one.
   */
  phaseOnly?: boolean;
}

export interface TriggerDecision {
  trigger: Trigger | null;
  /** The state after this decision (consumed keys, completed count). */
  state: FreezeState;
  todos: TodoSnapshot;
  /** The person's message the decision looked at (live one first). */
  person: PersonMessage | null;
}

const consume = (consumed: string[], key: string): string[] => [...consumed.filter((k) => k !== key), key].slice(-MAX_CONSUMED);

export function pickTrigger({ events, live, state, options, phaseOnly = false }: TriggerInput): TriggerDecision {
  const todos = readTodos(events);
  // The live message overrides the recorded one: at step 1 the events still end with the previous
  // message, and trusting them would recall for the wrong question and then again for the right one.
  const person = live ?? lastRecordedPersonMessage(events);
  const fresh = person !== null && person.text !== '' && !state.consumed.includes(person.key);

  if (fresh && !phaseOnly && (!state.frozen || options.onUserMessage)) {
    return {
      trigger: { kind: state.frozen ? 'user-message' : 'first-turn', query: person.text, userKey: person.key },
      state: { ...state, consumed: consume(state.consumed, person.key), completedSeen: todos.completed },
      todos,
      person,
    };
  }

  const seen = state.completedSeen ?? 0;
  if (todos.completed !== seen) {
    const next = { ...state, completedSeen: todos.completed };
    // Fewer completed means a new list: a new baseline, not progress.
    if (todos.completed > seen && options.onTodoCheck && todos.inProgress.length > 0) {
      return { trigger: { kind: 'phase-change', query: todos.inProgress.join('\n') }, state: next, todos, person };
    }
    return { trigger: null, state: next, todos, person };
  }
  return { trigger: null, state, todos, person };
}
