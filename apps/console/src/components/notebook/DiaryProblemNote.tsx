'use client';
// The editor's problem with the text, in the reader's language, tied to the text field by its id
// (aria-describedby): saving waits until it is fixed.
import { useI18n } from '../../client/i18n.tsx';
import type { DiaryProblem } from './diary-check.ts';

export function DiaryProblemNote({ problem, id }: { problem: DiaryProblem | null; id: string }) {
  const { t } = useI18n();
  if (!problem) return null;
  return (
    <p id={id} role="alert" data-testid="diary-problem" className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm text-danger">
      {t('edit.textAfterTags', { line: problem.line })}
    </p>
  );
}
