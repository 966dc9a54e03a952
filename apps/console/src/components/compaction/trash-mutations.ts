// The three writes of a compacted session's memory (remove, restore, purge), shared by the
// session-wide buttons and the per-block ones: each answers with its count and the audit line the
// engine wrote; the toast says what happened and the compaction queries read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';

export function useTrashMutations() {
  const { pick } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const queryClient = useQueryClient();
  const done = async (text: string) => {
    toast.ok(text);
    await queryClient.invalidateQueries(trpc.compaction.pathFilter());
  };
  const remove = useMutation(
    trpc.compactionTrash.remove.mutationOptions({
      onSuccess: (r) => done(r.trashed ? pick([`已移入回收站 ${r.count} 块`, `${r.count} blocks moved to the trash`]) : pick([`已永久删除 ${r.count} 块`, `${r.count} blocks deleted for good`])),
      onError: (e) => toast.error(e),
    }),
  );
  const restore = useMutation(
    trpc.compactionTrash.restore.mutationOptions({ onSuccess: (r) => done(pick([`已还原 ${r.count} 块`, `${r.count} blocks restored`])), onError: (e) => toast.error(e) }),
  );
  const purge = useMutation(
    trpc.compactionTrash.purge.mutationOptions({ onSuccess: (r) => done(pick([`已清空 ${r.count} 块`, `${r.count} blocks purged`])), onError: (e) => toast.error(e) }),
  );
  return { remove, restore, purge, busy: remove.isPending || restore.isPending || purge.isPending };
}
