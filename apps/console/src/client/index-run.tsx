'use client';
// The index runs with live progress, shared by the Index page and the Settings confirmation: 同步改动
// (an incremental pass that catches the index up with what changed in the diary folder) and 全量重建
// (every file read and indexed again). Reads the server's NDJSON stream and keeps the progress card's
// state in one place; one run at a time.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RebuildEvent } from '../shared/progress.ts';
import type { RouterOutputs } from './types.ts';
import { useTRPC } from './trpc.tsx';
import { apiPath } from './base-path.ts';

export type IndexReport = RouterOutputs['index']['rebuild'];

/** `changes`: the quick incremental pass; `full`: every file again (needed after a tokenizer, chunking or embedding change). */
export type IndexRunKind = 'changes' | 'full';

export interface IndexRunState {
  /** The run under way, or the last one (null before the first). */
  kind: IndexRunKind | null;
  running: boolean;
  percent: number;
  phase: string | null;
  /** Units of the current phase (files read, documents stored, chunks embedded). */
  done: number;
  total: number;
  message: string | null;
  report: IndexReport | null;
  error: { code: string; message: string } | null;
}

interface IndexRunApi extends IndexRunState {
  start: (kind: IndexRunKind) => Promise<void>;
}

const idle: IndexRunState = { kind: null, running: false, percent: 0, phase: null, done: 0, total: 0, message: null, report: null, error: null };
const IndexRunContext = createContext<IndexRunApi | null>(null);

export function IndexRunProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<IndexRunState>(idle);
  const running = useRef(false);

  const start = useCallback(async (kind: IndexRunKind) => {
    if (running.current) return;
    running.current = true;
    setState({ ...idle, kind, running: true, phase: 'scan' });
    try {
      const res = await fetch(apiPath('/api/index/rebuild'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full: kind === 'full' }),
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
        throw Object.assign(new Error(body?.error?.message ?? `HTTP ${res.status}`), { code: body?.error?.code ?? String(res.status) });
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line) apply(JSON.parse(line) as RebuildEvent);
        }
      }
    } catch (e) {
      setState((s) => ({ ...s, error: { code: (e as { code?: string }).code ?? 'ERROR', message: (e as Error).message } }));
    } finally {
      running.current = false;
      setState((s) => ({ ...s, running: false }));
      await Promise.all([queryClient.invalidateQueries(trpc.index.pathFilter()), queryClient.invalidateQueries(trpc.memories.pathFilter())]);
    }

    function apply(e: RebuildEvent) {
      if (e.type === 'progress') setState((s) => ({ ...s, percent: Math.max(s.percent, e.percent), phase: e.phase, done: e.done, total: e.total, message: e.message ?? null }));
      else if (e.type === 'done') setState((s) => ({ ...s, percent: 100, phase: 'done', done: 0, total: 0, report: e.report as IndexReport }));
      else setState((s) => ({ ...s, error: { code: e.code, message: e.message } }));
    }
  }, [queryClient, trpc]);

  const api = useMemo(() => ({ ...state, start }), [state, start]);
  return <IndexRunContext.Provider value={api}>{children}</IndexRunContext.Provider>;
}

export function useIndexRun(): IndexRunApi {
  const ctx = useContext(IndexRunContext);
  if (!ctx) throw new Error('useIndexRun outside IndexRunProvider');
  return ctx;
}
