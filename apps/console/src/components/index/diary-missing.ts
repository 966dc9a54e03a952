// The words of the banner the Index and Library pages show when the engine finds its diary folder gone
// (engine status `diaryMissing`: deleted, moved away, its drive unmounted): where it was expected,
// since when, and that recall injects nothing until it is back while the index is kept. The Library,
// which lists memories from the index, also says its rows are not on disk right now. Pure.
import type { MessageKey } from '../../client/messages.ts';

type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function diaryMissingText(
  status: { diaryDir: string; diaryMissing: { since: string } | null },
  t: Translate,
  /** An ISO time as the reader's local date and time. */
  when: (iso: string) => string,
  /** The page showing it: the Library lists memories from the index, and says so. */
  page: 'index' | 'library' = 'index',
): { title: string; body: string; listed: string | null } | null {
  if (!status.diaryMissing) return null;
  return {
    title: t('index.diaryMissing.title'),
    body: t('index.diaryMissing.body', { dir: status.diaryDir, since: when(status.diaryMissing.since) }),
    listed: page === 'library' ? t('library.diaryMissing.listed') : null,
  };
}
