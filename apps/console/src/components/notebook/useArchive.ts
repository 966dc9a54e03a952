'use client';
// Archive with undo, restore from the archive: one place, so the preview, the Library and its
// 「已归档」 filter behave the same. The toast offers 撤销 for ten seconds; undo moves the file back.
import { useMutation } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { useInvalidateWorkspaceData } from '../workspace/common.tsx';

export function useArchive(onChange?: () => void) {
  const trpc = useTRPC();
  const toast = useToast();
  const { t } = useI18n();
  const invalidateAll = useInvalidateWorkspaceData();
  const changed = async () => {
    await invalidateAll();
    onChange?.();
  };
  const restore = useMutation(
    trpc.archive.restore.mutationOptions({
      onError: (e) => toast.error(e),
    }),
  );
  const archive = useMutation(trpc.memories.archive.mutationOptions({ onError: (e) => toast.error(e) }));

  const restoreOne = async (idOrPath: string, title: string) => {
    await restore.mutateAsync({ id: idOrPath });
    toast.ok(t('archive.restored', { title }));
    await changed();
  };

  const archiveOne = async (id: string, title: string) => {
    const moved = await archive.mutateAsync({ id });
    // Said as soon as the file has moved; the lists refresh after (at 20,000 memories that took 2 s).
    toast.ok(t('archive.done', { title }), { label: t('archive.undo'), run: () => void restoreOne(moved.to, title).catch(() => undefined) });
    await changed();
  };

  return { archiveOne, restoreOne, busy: archive.isPending || restore.isPending };
}
