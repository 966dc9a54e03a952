// The writes of one compacted session's memory, under its trash: move every stored block to the
// trash (or delete them for good when compaction.trash is off), restore the whole trash, purge it.
// Each action is audited by the engine; the toast says what happened and the section re-reads.
// The per-block buttons are in BlockActions.tsx.
import { useI18n } from '../../client/i18n.tsx';
import { Button } from '../ui.tsx';
import { useTrashMutations } from './trash-mutations.ts';

export function CompactionTrashActions({ scope, blocks, trashed }: { scope: { workspace: string; sessionId: string }; blocks: number; trashed: number }) {
  const { pick } = useI18n();
  const { remove, restore, purge, busy } = useTrashMutations();
  return (
    <div className="flex flex-wrap gap-2" data-testid="compaction-trash-actions">
      <Button
        variant="danger"
        disabled={busy || blocks === 0}
        onClick={() => {
          if (window.confirm(pick(['把这个会话保存的压缩记忆全部移入回收站?(回收站关闭时为永久删除)', 'Move all of this session’s compaction memory to the trash? (Deleted for good when the trash is off)']))) remove.mutate({ ...scope, ids: null });
        }}
      >
        {pick(['全部删除', 'Remove all'])}
      </Button>
      <Button disabled={busy || trashed === 0} onClick={() => restore.mutate({ ...scope, ids: null })}>
        {pick(['全部还原', 'Restore all'])}
      </Button>
      <Button
        variant="danger"
        disabled={busy || trashed === 0}
        onClick={() => {
          if (window.confirm(pick(['清空回收站?清空后无法还原。', 'Empty the trash? Purged blocks cannot be restored.']))) purge.mutate({ ...scope, ids: null });
        }}
      >
        {pick(['清空回收站', 'Empty trash'])}
      </Button>
    </div>
  );
}
