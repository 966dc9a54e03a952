'use client';
// New memory: the same write path the agent's tool uses; format problems come back as warnings.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../client/i18n.tsx';
import { engineText } from '../../client/engine-text.ts';
import { useToast } from '../../client/toast.tsx';
import { useTRPC } from '../../client/trpc.tsx';
import { Button, Card, inputClass } from '../ui.tsx';

export const splitTags = (s: string): string[] =>
  s
    .split(/[,，、\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

export function CreateMemoryForm({
  categories,
  onDone,
  workspace,
  workspaceName,
}: {
  categories: string[];
  onDone: () => void;
  /** The workspace the Library is looking at: the memory is written into it (else global). */
  workspace?: string;
  workspaceName?: string;
}) {
  const { t, lang } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [tags, setTags] = useState('');
  const [folder, setFolder] = useState('');
  const [warnings, setWarnings] = useState<string[]>([]);

  const create = useMutation(
    trpc.memories.create.mutationOptions({
      onSuccess: async (res) => {
        toast.ok(res.merged ? t('memory.merged', { path: res.path }) : t('library.create.done', { path: res.path }));
        // One short line naming the older memories; the engine's long reason is written for the agent
        // (it suggests superseding, which is the agent's tool) and may also be among the warnings.
        const conflictList = res.conflicts ?? [];
        const conflicts = conflictList.length ? [t('memory.conflicts', { titles: conflictList.map((c) => `「${c.title}」`).join('、') })] : [];
        const warnings = res.warnings.filter((w) => !conflictList.some((c) => w === c.reason || (w.includes(c.title) && w.includes('冲突')))).map((w) => engineText(w, lang));
        setWarnings([...new Set([...warnings, ...conflicts, ...(res.semanticIndexed ? [] : [t('library.create.noVectors')])])]);
        setTitle('');
        setContent('');
        setTags('');
        await Promise.all([
          queryClient.invalidateQueries(trpc.memories.pathFilter()),
          queryClient.invalidateQueries(trpc.index.pathFilter()),
          queryClient.invalidateQueries(trpc.workspaces.pathFilter()),
        ]);
        if (res.warnings.length === 0 && !res.conflicts?.length) onDone();
      },
      onError: (e) => toast.error(e),
    }),
  );

  const submit = () => {
    const tagList = splitTags(tags);
    create.mutate({
      content,
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(tagList.length ? { tags: tagList } : {}),
      ...(folder.trim() ? { folder: folder.trim() } : {}),
      ...(workspace ? { workspace } : {}),
    });
  };

  return (
    <Card title={t('library.new')} testId="create-form">
      <form
        className="grid grid-cols-1 gap-3 @side:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {workspace ? (
          <p className="text-xs text-muted @side:col-span-2" data-testid="create-workspace">
            {t('library.writeInto', { name: workspaceName ?? workspace })}
          </p>
        ) : null}
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('library.create.title')}
          <input data-testid="create-title" className={inputClass} value={title} placeholder={t('library.create.titlePh')} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {t('library.create.folder')}
          <input className={inputClass} list="engram-categories" value={folder} placeholder={t('library.create.folderPh')} onChange={(e) => setFolder(e.target.value)} />
          <datalist id="engram-categories">
            {categories.filter(Boolean).map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted @side:col-span-2">
          {t('library.create.content')}
          <textarea
            data-testid="create-content"
            className={`${inputClass} prose-raw min-h-40 resize-y`}
            value={content}
            placeholder={t('library.create.contentPh')}
            onChange={(e) => setContent(e.target.value)}
          />
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted @side:col-span-2">
          {t('library.create.tags')}
          <input data-testid="create-tags" className={inputClass} value={tags} placeholder={t('library.create.tagsPh')} onChange={(e) => setTags(e.target.value)} />
        </label>
        {warnings.length > 0 ? (
          <ul className="rounded-md bg-warn-soft px-3 py-2 text-xs text-warn @side:col-span-2" data-testid="create-warnings">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        ) : null}
        <div className="flex gap-2 @side:col-span-2">
          <Button type="submit" variant="primary" data-testid="create-submit" disabled={create.isPending || !content.trim()}>
            {t('library.create.submit')}
          </Button>
          <Button onClick={onDone}>{t('common.cancel')}</Button>
        </div>
      </form>
    </Card>
  );
}
