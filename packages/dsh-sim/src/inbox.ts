// `agent.inbox` is the host's queue of pending user input. Anything a plugin puts there is claimed
// at the next step boundary as new user input and costs an extra model request (seed pitfall #7).
// The default host hands out a sentinel that records and refuses every touch; the working inbox
// exists so a mutation test can put an inbox-using plugin back and watch the extra requests appear.
import type { InboxViolation, UserMessage } from './types.ts';

export type InboxTarget = 'next-step' | 'next-turn';

export class InboxViolationError extends Error {
  constructor(member: string) {
    super(`agent.inbox.${member} touched: plugins must never use agent.inbox (injected text would be claimed as new user input)`);
    this.name = 'InboxViolationError';
  }
}

/** A proxy on which any property read, write, `in` test or delete records a violation and throws. */
export function createInboxSentinel(sessionId: string, violations: InboxViolation[]): object {
  const refuse = (member: PropertyKey, op: InboxViolation['op']): never => {
    const name = String(member);
    violations.push({ member: name, op, sessionId, stack: new Error().stack });
    throw new InboxViolationError(name);
  };
  return new Proxy(Object.create(null) as object, {
    get(_target, key) {
      // Symbols are how util.inspect / iteration protocols probe any object; they are not an intent to use the inbox.
      if (typeof key === 'symbol') return undefined;
      // JSON.stringify(payload) while logging should not count as using the queue.
      if (key === 'toJSON') return () => '[agent.inbox]';
      return refuse(key, 'get');
    },
    set: (_target, key) => refuse(key, 'set'),
    has: (_target, key) => (typeof key === 'symbol' ? false : refuse(key, 'has')),
    deleteProperty: (_target, key) => refuse(key, 'delete'),
    defineProperty: (_target, key) => refuse(key, 'define'),
    ownKeys: () => [],
  });
}

export interface SpliceRecord {
  target: InboxTarget;
  start: number;
  removedCount?: number;
  inserted: UserMessage[];
}

/**
 * A working queue with the host's inbox surface (nextStep / nextTurn lists, append / prepend /
 * replace / remove / clear / claim). Every change is reported so it lands in the session log as
 * `agent/inbox/spliced`, as the host records it.
 */
export class WorkingInbox {
  private readonly lists: Record<InboxTarget, UserMessage[]> = { 'next-step': [], 'next-turn': [] };

  constructor(
    private readonly normalise: (message: unknown) => UserMessage,
    private readonly onSplice: (record: SpliceRecord) => void,
  ) {}

  get nextStep(): readonly UserMessage[] {
    return [...this.lists['next-step']];
  }

  get nextTurn(): readonly UserMessage[] {
    return [...this.lists['next-turn']];
  }

  get items(): readonly UserMessage[] {
    return [...this.lists['next-step'], ...this.lists['next-turn']];
  }

  get length(): number {
    return this.lists['next-step'].length + this.lists['next-turn'].length;
  }

  append(message: unknown, target: InboxTarget = 'next-step'): void {
    const list = this.lists[target];
    const normalised = this.normalise(message);
    list.push(normalised);
    this.onSplice({ target, start: list.length - 1, inserted: [normalised] });
  }

  push(message: unknown, target: InboxTarget = 'next-step'): void {
    this.append(message, target);
  }

  prepend(message: unknown, target: InboxTarget = 'next-step'): void {
    const normalised = this.normalise(message);
    this.lists[target].unshift(normalised);
    this.onSplice({ target, start: 0, inserted: [normalised] });
  }

  replace(messageId: string, message: unknown): boolean {
    for (const target of ['next-step', 'next-turn'] as const) {
      const list = this.lists[target];
      const index = list.findIndex((m) => m.id === messageId);
      if (index < 0) continue;
      const normalised = this.normalise(message);
      list.splice(index, 1, normalised);
      this.onSplice({ target, start: index, removedCount: 1, inserted: [normalised] });
      return true;
    }
    return false;
  }

  remove(messageId: string): boolean {
    for (const target of ['next-step', 'next-turn'] as const) {
      const list = this.lists[target];
      const index = list.findIndex((m) => m.id === messageId);
      if (index < 0) continue;
      list.splice(index, 1);
      this.onSplice({ target, start: index, removedCount: 1, inserted: [] });
      return true;
    }
    return false;
  }

  clear(): void {
    for (const target of ['next-step', 'next-turn'] as const) {
      const count = this.lists[target].length;
      if (count === 0) continue;
      this.lists[target] = [];
      this.onSplice({ target, start: 0, removedCount: count, inserted: [] });
    }
  }

  /** Takes everything pending: the host claims it as the next step's user input. */
  claimAll(): UserMessage[] {
    const claimed: UserMessage[] = [];
    for (const target of ['next-step', 'next-turn'] as const) {
      const list = this.lists[target];
      if (list.length === 0) continue;
      claimed.push(...list);
      this.onSplice({ target, start: 0, removedCount: list.length, inserted: [] });
      this.lists[target] = [];
    }
    return claimed;
  }
}
