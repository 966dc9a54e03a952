'use client';
// The diary folder gone under the running console (engine status `diaryMissing`), as the Index and
// Library pages show it above everything else: recall injects nothing until it is back, and on the
// Library, the memories listed come from the index and are not on disk right now.
import { useI18n } from '../../client/i18n.tsx';
import { Banner } from '../ui.tsx';
import { localDateTime } from '../workspace/common.tsx';
import { diaryMissingText } from './diary-missing.ts';

export function DiaryMissingBanner({ status, page }: { status: { diaryDir: string; diaryMissing: { since: string } | null }; page: 'index' | 'library' }) {
  const { t } = useI18n();
  const text = diaryMissingText(status, t, localDateTime, page);
  if (!text) return null;
  return (
    <Banner tone="danger" testId="diary-missing-banner" title={text.title}>
      <span className="[overflow-wrap:anywhere]">{text.body}</span>
      {text.listed ? <span className="mt-1 block">{text.listed}</span> : null}
    </Banner>
  );
}
