'use client';
// The full rebuild with live progress, shared by the Index page and the Settings confirmation: reads
// the server's NDJSON stream and keeps the bar's state in one place.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RebuildEvent } from '../shared/progress.ts';
import type { RouterOutputs } from './types.ts';
import { useTRPC } from './trpc.tsx';
import { apiPath } from './base-path.ts';

export type IndexReport = RouterOutputs['index']['rebuild'];

export interface RebuildState {
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

interface RebuildApi extends RebuildState {
  start: () => Promise<void>;
}

const idle: RebuildState = { running: false, percent: 0, phase: null, done: 0, total: 0, message: null, report: null, error: null };
const RebuildContext = createContext<RebuildApi | null>(null);

export function RebuildProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<RebuildState>(idle);
  const running = useRef(false);

  const start = useCallback(async () => {
    if (running.current) return;
    running.current = true;
    setState({ ...idle, running: true, phase: 'scan' });
    try {
      const res = await fetch(apiPath('/api/index/rebuild'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ full: true }),
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
  return <RebuildContext.Provider value={api}>{children}</RebuildContext.Provider>;
}

export function useRebuild(): RebuildApi {
  const ctx = useContext(RebuildContext);
  if (!ctx) throw new Error('useRebuild outside RebuildProvider');
  return ctx;
}
