// Tier 1: resident memories plus tool guidance, and the diary-writing guideline. Both are static
// text: in section mode they sit in the system prompt, byte-identical from one request to the next
// until someone edits them. In message mode the resident block is a user-role message, added again
// only when its text changed (capped by runtime.maxMessages).
import type { EngramConfig } from '@engram/engine';
import type { HostEvent, HostLogger, UserMessage } from '../core/host-types.ts';
import { blockKey, normaliseMaxMessages } from '../recall/dedupe.ts';
import { pluginMessage } from '../sessions/messages.ts';
import { textOfContent, visibleOwnMessages } from '../sessions/view.ts';

export const RESIDENT_SECTION_NAME = 'engram:resident';
export const GUIDELINE_SECTION_NAME = 'engram:diary-guideline';
/** After the resident memories (120) and the recall context (125) by default. */
export const GUIDELINE_ORDER = 130;

export class ResidentChannel {
  private readonly warnedCap = new Map<string, Set<string>>();

  constructor(private readonly log: HostLogger) {}

  /** The resident message for this step, or null when the history already ends with this text. */
  messageFor(sessionId: string, events: readonly HostEvent[], config: EngramConfig, text: string): UserMessage | null {
    if (text === '') return null;
    const visible = visibleOwnMessages(events, 'instructions');
    const key = blockKey(text);
    const latest = visible.at(-1);
    if (latest && blockKey(textOfContent(latest.content)) === key) return null;
    const cap = normaliseMaxMessages(config.runtime.maxMessages, 3);
    if (visible.length >= cap) {
      const warned = this.warnedCap.get(sessionId) ?? new Set<string>();
      this.warnedCap.set(sessionId, warned);
      while (this.warnedCap.size > 256) this.warnedCap.delete(this.warnedCap.keys().next().value!);
      if (!warned.has(key)) {
        warned.add(key);
        this.log.warn(`resident session=${sessionId}: runtime.maxMessages=${config.runtime.maxMessages} reached (${visible.length} resident messages in the history), changed block not injected`);
      }
      return null;
    }
    return pluginMessage('instructions', text);
  }
}
