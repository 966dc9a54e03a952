// An audit line as a person reads it: the action in words and the blocks by title (the engine
// records block ids; a purged block's title is gone, so its id stands in). Pure.
type Action = 'trash' | 'delete' | 'restore' | 'purge';
type Key = `compaction.audit.${Action}` | 'compaction.audit.more';

export interface AuditRow {
  action: string;
  target: string;
  count: number;
}

const ACTIONS: readonly string[] = ['trash', 'delete', 'restore', 'purge'];

export function auditAction(action: string, t: (key: Key, vars?: Record<string, number>) => string): string {
  return ACTIONS.includes(action) ? t(`compaction.audit.${action as Action}`) : action;
}

/** The blocks an entry names: the first by title, then "and n more"; '' for a whole session. */
export function auditTarget(target: string, titles: ReadonlyMap<string, string>, t: (key: Key, vars?: Record<string, number>) => string, max = 40): string {
  if (target === 'session') return '';
  const ids = target.split(',').filter((id) => id !== '');
  const first = titles.get(ids[0] ?? '') ?? ids[0] ?? '';
  const shown = Array.from(first).length > max ? `${Array.from(first).slice(0, max - 1).join('')}…` : first;
  return ids.length > 1 ? `${shown} ${t('compaction.audit.more', { n: ids.length - 1 })}` : shown;
}
