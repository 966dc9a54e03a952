'use client';
// An open memory's archive button (asked once, then archived with an undo toast), its restore
// button once archived, or why neither shows (locked).
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { LockIcon } from '../icons.tsx';
import { useArchive } from '../notebook/useArchive.ts';
import { Button } from '../ui.tsx';
import type { Detail } from './MemoryMeta.tsx';

export function ArchiveActions({ memory: d }: { memory: Detail }) {
  const { t } = useI18n();
  const [confirmArchive, setConfirmArchive] = useState(false);
  const { archiveOne, restoreOne, busy: archiving } = useArchive();
  return (
    <>
      {d.locked && !d.archived ? <span className="inline-flex items-center gap-1 text-xs text-muted">
          <LockIcon /> {t('memory.lockedHint')}
        </span> : null}
      {!d.archived && !d.locked ? (
        confirmArchive ? (
          <>
            <span className="text-xs text-muted">{t('library.archive.confirm', { title: d.title })}</span>
            <Button variant="danger" data-testid="memory-archive-confirm" disabled={archiving} onClick={() => void archiveOne(d.docId, d.title).then(() => setConfirmArchive(false)).catch(() => undefined)}>
              {t('library.archive')}
            </Button>
            <Button onClick={() => setConfirmArchive(false)}>{t('common.cancel')}</Button>
          </>
        ) : (
          <Button variant="ghost" data-testid="memory-archive" onClick={() => setConfirmArchive(true)}>
            {t('library.archive')}
          </Button>
        )
      ) : null}
      {d.archived && !d.readOnly ? (
        <Button data-testid="memory-restore" disabled={archiving} onClick={() => void restoreOne(d.docId, d.title).catch(() => undefined)}>
          {t('archive.restore')}
        </Button>
      ) : null}
    </>
  );
}
