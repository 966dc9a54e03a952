'use client';
// Leaving the editor with unsaved changes: keep editing, or discard them.
import { useI18n } from '../../client/i18n.tsx';
import { Dialog } from '../Dialog.tsx';
import { Button } from '../ui.tsx';

export function DiscardDialog({ title, onKeep, onCancel, onDiscard }: { title: string; onKeep: () => void; onCancel: () => void; onDiscard: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog
      title={t('memory.discard.title')}
      testId="memory-discard-confirm"
      onCancel={onCancel}
      actions={
        <>
          <Button data-autofocus data-testid="memory-discard-keep" onClick={onKeep}>
            {t('memory.discard.keep')}
          </Button>
          <Button variant="danger" data-testid="memory-discard-yes" onClick={onDiscard}>
            {t('memory.discard.yes')}
          </Button>
        </>
      }
    >
      <p className="text-muted">{t('memory.discard.body', { title })}</p>
    </Dialog>
  );
}
