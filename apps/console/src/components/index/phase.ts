// An index pass's phase in the reader's words ("列出文件", "读取文件并写入索引"…), never the
// stream's raw English id: shared by the run's card and the live sync's.
import type { MessageKey } from '../../client/messages.ts';

const PHASE_KEYS = {
  scan: 'index.phase.scan',
  parse: 'index.phase.parse',
  tokenize: 'index.phase.tokenize',
  store: 'index.phase.store',
  embed: 'index.phase.embed',
  done: 'index.phase.done',
} as const satisfies Record<string, MessageKey>;

export function phaseLabel(phase: string, t: (k: MessageKey) => string): string {
  return phase in PHASE_KEYS ? t(PHASE_KEYS[phase as keyof typeof PHASE_KEYS]) : phase;
}
