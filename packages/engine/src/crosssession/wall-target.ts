// Who a wall message is for, from what a model typed: nobody in particular, a session (its id or a
// prefix of it, at least 6 characters so a stray word does not address half the sessions), or a
// workspace. `s:` / `ws:` say it outright; a bare value is a workspace when one by that id exists,
// else a session prefix. Pure; the lookup of known workspaces is the caller's.
import { bareSessionId, WALL_SESSION_PREFIX, WALL_WORKSPACE_PREFIX } from '@engram/db';
import { EngramError } from '../errors.ts';
import { charLength } from '../compaction/text.ts';

export const WALL_TEXT_MAX = 2000;
export const MIN_SESSION_PREFIX = 6;

export type WallTarget = { kind: 'public' } | { kind: 'session'; prefix: string } | { kind: 'workspace'; workspace: string };

/** A bare value still to be resolved against the known workspaces. */
export type ParsedTarget = WallTarget | { kind: 'either'; value: string };

const PUBLIC_WORDS = new Set(['', '*', 'all', 'public', 'everyone', 'global', '所有人', '大家', '公开']);
const SESSION_PREFIX = /^[a-z0-9][a-z0-9._-]*$/;
const WORKSPACE_ID = /^[^\s;=,]{1,200}$/;

export function parseWallTarget(to: unknown): ParsedTarget {
  if (to === undefined || to === null) return { kind: 'public' };
  if (typeof to !== 'string') throw new EngramError('bad-input', '"to" 必须是字符串:会话 id(或前缀)、工作区 id,或留空表示所有人');
  const value = to.trim();
  if (PUBLIC_WORDS.has(value.toLowerCase())) return { kind: 'public' };
  if (value.toLowerCase().startsWith(WALL_SESSION_PREFIX)) return { kind: 'session', prefix: sessionPrefix(value.slice(WALL_SESSION_PREFIX.length)) };
  if (value.toLowerCase().startsWith(WALL_WORKSPACE_PREFIX)) {
    const workspace = value.slice(WALL_WORKSPACE_PREFIX.length).trim();
    if (!WORKSPACE_ID.test(workspace)) throw new EngramError('bad-input', `工作区 id 不合法:"${workspace.slice(0, 40)}"`);
    return { kind: 'workspace', workspace };
  }
  if (!WORKSPACE_ID.test(value)) throw new EngramError('bad-input', `收件人不合法:"${value.slice(0, 40)}"(会话 id 前缀至少 ${MIN_SESSION_PREFIX} 位,或工作区 id,或留空)`);
  return { kind: 'either', value };
}

/** A session prefix as stored: lower case, at least MIN_SESSION_PREFIX characters. */
export function sessionPrefix(raw: string): string {
  const prefix = raw.trim().toLowerCase();
  if (prefix.length < MIN_SESSION_PREFIX || prefix.length > 200 || !SESSION_PREFIX.test(prefix)) {
    throw new EngramError('bad-input', `会话 id 前缀至少 ${MIN_SESSION_PREFIX} 位,只含字母、数字、. _ -:"${raw.slice(0, 40)}"`);
  }
  return prefix;
}

/** The `either` case: a known workspace wins, otherwise it must be a valid session prefix. */
export function resolveWallTarget(parsed: ParsedTarget, isWorkspace: boolean): WallTarget {
  if (parsed.kind !== 'either') return parsed;
  return isWorkspace ? { kind: 'workspace', workspace: parsed.value } : { kind: 'session', prefix: sessionPrefix(parsed.value) };
}

export function storedRecipient(target: WallTarget): string {
  if (target.kind === 'public') return '';
  return target.kind === 'session' ? `${WALL_SESSION_PREFIX}${target.prefix}` : `${WALL_WORKSPACE_PREFIX}${target.workspace}`;
}

/** '所有人' / '会话 1a2b3c4d' / '工作区 x' for a stored recipient. */
export function describeRecipient(recipient: string): string {
  if (recipient === '') return '所有人';
  if (recipient.startsWith(WALL_SESSION_PREFIX)) return `会话 ${recipient.slice(WALL_SESSION_PREFIX.length)}`;
  if (recipient.startsWith(WALL_WORKSPACE_PREFIX)) return `工作区 ${recipient.slice(WALL_WORKSPACE_PREFIX.length)}`;
  return recipient;
}

/** Is a stored recipient this reader (public messages are for everyone, not "for you")? */
export function addressedTo(recipient: string, reader: { sessionId: string; workspace: string }): boolean {
  if (recipient.startsWith(WALL_SESSION_PREFIX)) {
    const prefix = recipient.slice(WALL_SESSION_PREFIX.length);
    return prefix.length > 0 && (reader.sessionId.toLowerCase().startsWith(prefix) || bareSessionId(reader.sessionId).toLowerCase().startsWith(prefix));
  }
  return recipient === `${WALL_WORKSPACE_PREFIX}${reader.workspace}`;
}

/** The message text as stored: trimmed, non-empty, at most WALL_TEXT_MAX characters. */
export function wallText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw new EngramError('bad-input', '留言不能为空');
  const trimmed = text.trim();
  const n = charLength(trimmed);
  if (n > WALL_TEXT_MAX) throw new EngramError('too-long', `留言 ${n} 字,超过上限 ${WALL_TEXT_MAX} 字;请精简后再写`);
  return trimmed;
}
