// One block's writes: a stored block can be removed (into the trash, restorable — asked first only
// when the trash is off and the removal is for good); a trashed block can be restored or deleted
// for good (asked first). The engine writes one audit line per action.
import { useI18n } from '../../client/i18n.tsx';
import { Button } from '../ui.tsx';
import { useTrashMutations } from './trash-mutations.ts';

type Scope = { workspace: string; sessionId: string };

const SMALL = 'px-2 py-0.5 text-xs';

export function StoredBlockActions({ scope, id, trash }: { scope: Scope; id: string; trash: boolean }) {
  const { t } = useI18n();
  const { remove, busy } = useTrashMutations();
  return (
    <Button
      variant="danger"
      className={SMALL}
      data-testid="compaction-block-remove"
      title={trash ? t('compaction.block.removeHint') : undefined}
      disabled={busy}
      onClick={() => {
        if (trash || window.confirm(t('compaction.block.confirmDelete'))) remove.mutate({ ...scope, ids: [id] });
      }}
    >
      {t('compaction.block.remove')}
    </Button>
  );
}

export function TrashedBlockActions({ scope, id }: { scope: Scope; id: string }) {
  const { t } = useI18n();
  const { restore, purge, busy } = useTrashMutations();
  return (
    <span className="inline-flex gap-1">
      <Button className={SMALL} data-testid="compaction-block-restore" disabled={busy} onClick={() => restore.mutate({ ...scope, ids: [id] })}>
        {t('compaction.block.restore')}
      </Button>
      <Button
        variant="danger"
        className={SMALL}
        data-testid="compaction-block-purge"
        disabled={busy}
        onClick={() => {
          if (window.confirm(t('compaction.block.confirmPurge'))) purge.mutate({ ...scope, ids: [id] });
        }}
      >
        {t('compaction.block.purge')}
      </Button>
    </span>
  );
}
