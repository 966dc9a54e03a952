'use client';
// Which workspace the Library (and the Recall form, as its default) is looking at: '' = every memory.
// Remembered in the URL (`?ws=`, so a link opens the same view) and in localStorage (so a reopened
// console does too; not in a cross-site frame, where storage is refused); the URL wins.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { readStored, writeStored } from './storage.ts';

const STORAGE_KEY = 'engram.workspace';
const GLOBAL_KEY = 'engram.workspace.includeGlobal';
const PARAM = 'ws';

export const ALL_WORKSPACES = '';

interface WorkspaceChoice {
  /** A workspace id, 'global', or '' for every memory. */
  workspace: string;
  /** With a workspace chosen: show the global memories too (what a session there sees). */
  includeGlobal: boolean;
  setWorkspace: (id: string) => void;
  setIncludeGlobal: (v: boolean) => void;
}

const Context = createContext<WorkspaceChoice | null>(null);

function writeUrl(id: string): void {
  const url = new URL(location.href);
  if (id) url.searchParams.set(PARAM, id);
  else url.searchParams.delete(PARAM);
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export function WorkspaceProvider({ children }: { children: ReactNode }) {
  const [workspace, setWorkspaceState] = useState(ALL_WORKSPACES);
  const [includeGlobal, setIncludeGlobalState] = useState(true);

  useEffect(() => {
    const fromUrl = new URL(location.href).searchParams.get(PARAM);
    const stored = readStored(STORAGE_KEY);
    const initial = fromUrl ?? stored ?? ALL_WORKSPACES;
    setWorkspaceState(initial);
    if (initial && !fromUrl) writeUrl(initial);
    if (readStored(GLOBAL_KEY) === 'false') setIncludeGlobalState(false);
  }, []);

  const setWorkspace = useCallback((id: string) => {
    setWorkspaceState(id);
    writeStored(STORAGE_KEY, id || null);
    writeUrl(id);
  }, []);
  const setIncludeGlobal = useCallback((v: boolean) => {
    setIncludeGlobalState(v);
    writeStored(GLOBAL_KEY, String(v));
  }, []);

  const value = useMemo(() => ({ workspace, includeGlobal, setWorkspace, setIncludeGlobal }), [workspace, includeGlobal, setWorkspace, setIncludeGlobal]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useWorkspaceChoice(): WorkspaceChoice {
  const ctx = useContext(Context);
  if (!ctx) throw new Error('useWorkspaceChoice outside WorkspaceProvider');
  return ctx;
}
