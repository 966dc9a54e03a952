'use client';
// Language: Chinese by default; the host's `?lang=` wins, then the user's pick (kept in localStorage
// when the browser allows it: a cross-site frame gets none, so the URL is what carries it there).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { en, format, zh, type Lang, type MessageKey } from './messages.ts';
import { enOps, zhOps, type OpsKey } from './messages-ops.ts';
import { enNotebook, zhNotebook, type NotebookKey } from './messages-notebook.ts';
import { enSettings, zhSettings, type SettingsKey } from './messages-settings.ts';
import { enEditor, zhEditor, type EditorKey } from './messages-editor.ts';
import { onHostAppearance, THEME_CHANGED } from './host-appearance.ts';
import { readStored, urlParam, writeStored } from './storage.ts';
import { LANG_KEY } from './theme-boot.ts';

interface I18n {
  lang: Lang;
  setLang: (lang: Lang) => void;
  t: (key: MessageKey | OpsKey | NotebookKey | SettingsKey | EditorKey, vars?: Record<string, string | number>) => string;
  /** Picks the right half of an inline [zh, en] pair (settings labels live next to their fields). */
  pick: (pair: readonly [string, string]) => string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>('zh');
  useEffect(() => {
    const fromHost = urlParam('lang');
    const stored = fromHost === 'en' || fromHost === 'zh' ? fromHost : readStored(LANG_KEY);
    if (stored === 'en' || stored === 'zh') setLangState(stored);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  // A host that changes its language or theme later tells the frame (client/host-appearance.ts).
  useEffect(
    () =>
      onHostAppearance(({ lang: hostLang, theme }) => {
        if (hostLang) setLangState(hostLang);
        if (theme) {
          document.documentElement.dataset.theme = theme;
          window.dispatchEvent(new Event(THEME_CHANGED));
        }
      }),
    [],
  );
  const setLang = useCallback((next: Lang) => {
    writeStored(LANG_KEY, next);
    setLangState(next);
  }, []);
  const value = useMemo<I18n>(() => {
    const table: Record<MessageKey | OpsKey | NotebookKey | SettingsKey | EditorKey, string> = lang === 'zh' ? { ...zh, ...zhOps, ...zhNotebook, ...zhSettings, ...zhEditor } : { ...en, ...enOps, ...enNotebook, ...enSettings, ...enEditor };
    return {
      lang,
      setLang,
      t: (key, vars) => format(table[key], vars),
      pick: (pair) => (lang === 'zh' ? pair[0] : pair[1]),
    };
  }, [lang, setLang]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
