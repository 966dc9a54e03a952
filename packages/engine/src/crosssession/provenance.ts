// Where a memory came from, in the few characters a listing can afford: the writing session's short
// id (enough to find its log again or address it on the wall) and who wrote it. A memory without a
// recorded session shows no session: an id is never made up. Pure.
import { bareSessionId } from '@engram/db';
import { GLOBAL_WORKSPACE } from '../diary/meta.ts';

/** Characters of a session id shown in listings (the first group of a UUID). */
export const SHORT_SESSION_CHARS = 8;

/** The first characters of the session id's distinctive part (the host's `session-` prefix left out). */
export const shortSession = (sessionId: string): string => bareSessionId(sessionId).slice(0, SHORT_SESSION_CHARS);

const ORIGIN_LABELS: Record<string, string> = { agent: '会话写入', console: '控制台', cli: '命令行', import: '会话导入' };

export interface ProvenanceInput {
  sessionId?: string | null;
  origin?: string;
  workspace?: string;
}

/**
 * `〔s:1a2b3c4d · 会话写入〕`; `'' ` when nothing is known. With `workspace: true` the memory's
 * workspace is added (`global` spelled out), for listings that mix scopes.
 */
export function formatProvenance(summary: ProvenanceInput, options: { workspace?: boolean } = {}): string {
  const parts: string[] = [];
  if (summary.sessionId) parts.push(`s:${shortSession(summary.sessionId)}`);
  const origin = summary.origin ? ORIGIN_LABELS[summary.origin] : undefined;
  if (origin) parts.push(origin);
  if (options.workspace && summary.workspace) parts.push(summary.workspace === GLOBAL_WORKSPACE ? 'global' : `ws:${summary.workspace}`);
  return parts.length === 0 ? '' : `〔${parts.join(' · ')}〕`;
}
