'use client';
// Unsaved edits of memories, kept above the list: closing a row, filtering it away or switching
// page never throws a draft away. Only an explicit, confirmed "discard" or a save does. While any
// draft is unsaved the browser asks before the tab is closed or reloaded.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { sameFields, type EditorFields } from '../notebook/fields-check.ts';

export interface MemoryDraft {
  /** The whole text (the text editor, for files the fields editor does not write). */
  text: string;
  /** The fields editor's draft, and the fields the file held when editing began. */
  fields?: EditorFields;
  baseFields?: EditorFields;
  /** The file's hash when editing began: a save sends it so a concurrent change is a CONFLICT. */
  baseHash: string;
  /** The text the draft started from, to tell an edited draft from an untouched one. */
  baseText: string;
}

interface Drafts {
  get: (id: string) => MemoryDraft | undefined;
  set: (id: string, draft: MemoryDraft | null) => void;
  /** Ids with an edited (different from the file) draft. */
  dirtyIds: ReadonlySet<string>;
}

const Context = createContext<Drafts | null>(null);

export const isDirty = (d: MemoryDraft | undefined): boolean =>
  d !== undefined && (d.fields && d.baseFields ? !sameFields(d.fields, d.baseFields) : d.text !== d.baseText);

export function DraftsProvider({ children }: { children: ReactNode }) {
  const [drafts, setDrafts] = useState<ReadonlyMap<string, MemoryDraft>>(new Map());
  const set = useCallback((id: string, draft: MemoryDraft | null) => {
    setDrafts((m) => {
      const next = new Map(m);
      if (draft) next.set(id, draft);
      else next.delete(id);
      return next;
    });
  }, []);
  const dirtyIds = useMemo(() => new Set([...drafts].filter(([, d]) => isDirty(d)).map(([id]) => id)), [drafts]);
  useEffect(() => {
    if (dirtyIds.size === 0) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirtyIds]);
  const value = useMemo<Drafts>(() => ({ get: (id) => drafts.get(id), set, dirtyIds }), [drafts, set, dirtyIds]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useDrafts(): Drafts {
  const ctx = useContext(Context);
  if (!ctx) throw new Error('useDrafts outside DraftsProvider');
  return ctx;
}
