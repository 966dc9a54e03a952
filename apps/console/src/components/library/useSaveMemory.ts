'use client';
// Saving an edited memory: the raw text (the text editor) or the fields (the diary's .txt files).
// Both refuse a save over a version changed elsewhere (CONFLICT), which the editor shows in place.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useI18n } from '../../client/i18n.tsx';
import type { EditorKey } from '../../client/messages-editor.ts';
import { useToast } from '../../client/toast.tsx';
import { describeError, useTRPC } from '../../client/trpc.tsx';
import type { FieldProblems } from '../notebook/fields-check.ts';
import { useInvalidateWorkspaceData } from '../workspace/common.tsx';
import { useDrafts } from './drafts.tsx';

export function useSaveMemory(
  id: string,
  on: {
    /** Saved: the draft is gone; leave edit mode. */
    saved: () => void;
    /** The file changed since the draft began. */
    conflict: () => void;
    /** The engine refused a field (its message key, tied to the field). */
    problem: (p: FieldProblems) => void;
  },
) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const toast = useToast();
  const drafts = useDrafts();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateWorkspaceData();

  const done = async () => {
    toast.ok(t('library.edit.saved'));
    drafts.set(id, null);
    on.saved();
    await invalidate();
  };
  const onError = (e: unknown) => {
    if (describeError(e).code === 'CONFLICT') on.conflict();
    else toast.error(e);
  };

  const save = useMutation(trpc.memories.save.mutationOptions({ onSuccess: done, onError }));
  const saveFields = useMutation(
    trpc.memories.saveFields.mutationOptions({
      onSuccess: async (res) => {
        if (!res.ok) {
          on.problem({ [res.problem.field]: `edit.problem.${res.problem.code}` as EditorKey });
          return;
        }
        // The saved text shows at once; the lists catch up after.
        queryClient.setQueryData(trpc.memories.read.queryKey({ id }), res.memory);
        await done();
      },
      onError,
    }),
  );
  return { save, saveFields };
}
