// The words of the Index page's banner when the engine finds its diary folder gone (engine status
// `diaryMissing`: deleted, moved away, its drive unmounted): where it was expected, since when, and
// that recall injects nothing until it is back while the index is kept. Pure.
import type { MessageKey } from '../../client/messages.ts';

type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function diaryMissingText(
  status: { diaryDir: string; diaryMissing: { since: string } | null },
  t: Translate,
  /** An ISO time as the reader's local date and time. */
  when: (iso: string) => string,
): { title: string; body: string } | null {
  if (!status.diaryMissing) return null;
  return { title: t('index.diaryMissing.title'), body: t('index.diaryMissing.body', { dir: status.diaryDir, since: when(status.diaryMissing.since) }) };
}
