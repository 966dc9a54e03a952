'use client';
// Toasts for the outcome of actions (saves, errors), at the top: the settings save bar lives at the bottom.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { engineText } from './engine-text.ts';
import { useI18n } from './i18n.tsx';
import { describeError } from './trpc.tsx';

interface Toast {
  id: number;
  kind: 'ok' | 'error';
  text: string;
  detail?: string;
  /** A button on the toast (撤销): it stays UNDO_MS, and pressing it runs the action and closes it. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  run: () => void;
}

/** How long a toast with an action (undo) stays. */
export const UNDO_MS = 10_000;

interface ToastApi {
  ok: (text: string, action?: ToastAction) => void;
  error: (e: unknown) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const { lang } = useI18n();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const seq = useRef(0);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const push = useCallback(
    (toast: Omit<Toast, 'id'>) => {
      const id = ++seq.current;
      setToasts((all) => [...all.slice(-3), { ...toast, id }]);
      // Errors stay longer (they are read, not glanced at) but never pile up over the page for good.
      setTimeout(() => dismiss(id), toast.action ? UNDO_MS : toast.kind === 'ok' ? 3500 : 15000);
    },
    [dismiss],
  );
  const api = useMemo<ToastApi>(
    () => ({
      ok: (text, action) => push({ kind: 'ok', text, ...(action ? { action } : {}) }),
      error: (e) => {
        const d = describeError(e);
        push({ kind: 'error', text: engineText(d.message, lang), detail: [d.code, d.engramCode].filter(Boolean).join(' · ') });
      },
    }),
    [push, lang],
  );
  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* In a narrow sidebar the toasts sit at the bottom: at the top they covered the query box. */}
      <div className="pointer-events-none fixed right-3 bottom-3 left-3 z-50 flex flex-col items-end gap-2 min-[620px]:top-3 min-[620px]:bottom-auto" aria-live="polite">
        {toasts.map((t) => (
          <div
            key={t.id}
            data-testid={t.kind === 'error' ? 'toast-error' : 'toast-ok'}
            role={t.kind === 'error' ? 'alert' : 'status'}
            className={`pointer-events-auto flex max-w-md items-start gap-3 rounded-lg border px-3 py-2 text-sm shadow-lg ${
              t.kind === 'error' ? 'border-danger/40 bg-danger-soft text-danger' : 'border-line bg-panel text-fg'
            }`}
          >
            <div className="min-w-0 flex-1">
              <div className="break-words">{t.text}</div>
              {t.detail ? <div className="mt-0.5 font-mono text-xs opacity-75">{t.detail}</div> : null}
            </div>
            {t.action ? (
              <button
                type="button"
                data-testid="toast-action"
                className="shrink-0 rounded-md border border-line px-2 py-0.5 text-xs font-medium text-accent hover:bg-sunken"
                onClick={() => {
                  dismiss(t.id);
                  t.action!.run();
                }}
              >
                {t.action.label}
              </button>
            ) : null}
            <button type="button" className="opacity-60 hover:opacity-100" aria-label="close" onClick={() => dismiss(t.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast outside ToastProvider');
  return ctx;
}
