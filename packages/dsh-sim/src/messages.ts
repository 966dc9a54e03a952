// Checking what plugins hand the host. The host's session vocabulary is strict: a user message is
// exactly { id, role: 'user', content: ContentBlock[], source: { kind, ... } }. Anything else is a
// contract error raised loudly here rather than a quietly malformed history.
import type { ContentBlock, UserMessage } from './types.ts';

export class HostContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostContractError';
  }
}

const USER_MESSAGE_KEYS = new Set(['id', 'role', 'content', 'source']);

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

function checkContent(content: unknown, where: string): ContentBlock[] {
  if (!Array.isArray(content)) {
    throw new HostContractError(`${where}: content must be an array of content blocks like [{ type: 'text', text }], got ${typeof content}`);
  }
  for (const block of content) {
    if (typeof (block as { type?: unknown })?.type !== 'string') throw new HostContractError(`${where}: every content block needs a string "type"`);
    if ((block as { type: string }).type === 'text' && typeof (block as { text?: unknown }).text !== 'string') {
      throw new HostContractError(`${where}: a text block needs a string "text"`);
    }
  }
  return content as ContentBlock[];
}

/**
 * Validates a message a plugin wants in the history and returns the host's own frozen copy
 * (with an id assigned when the plugin left it out).
 */
export function normaliseUserMessage(raw: unknown, where: string, newId: () => string): UserMessage {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new HostContractError(`${where}: a message must be an object`);
  const message = raw as Record<string, unknown>;
  const extra = Object.keys(message).filter((key) => !USER_MESSAGE_KEYS.has(key));
  if (extra.length > 0) {
    throw new HostContractError(`${where}: a user message has exactly { id, role, content, source }; unexpected ${extra.join(', ')} (put markers in source)`);
  }
  if (message.role !== undefined && message.role !== 'user') throw new HostContractError(`${where}: injected messages must have role 'user', got ${String(message.role)}`);
  const source = message.source as { kind?: unknown } | undefined;
  if (source === null || typeof source !== 'object' || typeof source.kind !== 'string') {
    throw new HostContractError(`${where}: a message needs source: { kind: string, ... } (e.g. { kind: 'plugin', plugin, form })`);
  }
  if (message.id !== undefined && (typeof message.id !== 'string' || message.id === '')) throw new HostContractError(`${where}: message id must be a non-empty string`);
  const content = checkContent(message.content, where);
  return deepFreeze({
    id: (message.id as string | undefined) ?? newId(),
    role: 'user',
    content: structuredClone(content),
    source: structuredClone(source) as UserMessage['source'],
  });
}

/** The text blocks of some content, joined by a blank line. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n\n');
}
