'use client';
// The console frame: navigation (top bar → icon rail → sidebar by width) and the four pages, all
// mounted at once and switched by data-active so a half-edited settings draft survives a page switch.
import { useEffect, useState, type ReactNode } from 'react';
import { useI18n } from '../client/i18n.tsx';
import { useTheme } from '../client/theme.tsx';
import type { MessageKey } from '../client/messages.ts';
import type { NotebookKey } from '../client/messages-notebook.ts';
import { EyeIcon, IndexIcon, LibraryIcon, Logo, MoonIcon, RecallIcon, SettingsIcon, SunIcon } from './icons.tsx';
import { AgentViewPage } from './pages/AgentViewPage.tsx';
import { IndexPage } from './pages/IndexPage.tsx';
import { LibraryPage } from './pages/LibraryPage.tsx';
import { RecallPage } from './pages/RecallPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';

export type PageId = 'agent' | 'library' | 'recall' | 'index' | 'settings';

const PAGES: { id: PageId; label: MessageKey | NotebookKey; short?: MessageKey | NotebookKey; icon: () => ReactNode }[] = [
  { id: 'agent', label: 'nav.agent', short: 'nav.agent.short', icon: EyeIcon },
  { id: 'library', label: 'nav.library', icon: LibraryIcon },
  { id: 'recall', label: 'nav.recall', short: 'nav.recall.short', icon: RecallIcon },
  { id: 'index', label: 'nav.index', icon: IndexIcon },
  { id: 'settings', label: 'nav.settings', icon: SettingsIcon },
];

const isPageId = (s: string): s is PageId => PAGES.some((p) => p.id === s);

export function AppShell() {
  const { t, lang, setLang } = useI18n();
  const [theme, toggleTheme] = useTheme();
  // 「我的 agent 会看到什么」 is where people start; the other pages are a click (or a #hash) away.
  const [active, setActive] = useState<PageId>('agent');

  useEffect(() => {
    const fromHash = () => {
      const id = location.hash.slice(1);
      if (isPageId(id)) setActive(id);
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, []);

  const go = (id: PageId) => {
    setActive(id);
    history.replaceState(null, '', `#${id}`);
  };

  return (
    <div className="shell" data-testid="shell">
      <a href="#main" className="skip-link" data-testid="skip-link" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        {t('nav.skip')}
      </a>
      <div className="shell-frame">
        <nav className="shell-nav" aria-label="Engram" data-testid="nav">
          <div className="hidden items-center gap-2 px-1.5 py-1 @rail:mb-3 @rail:flex @rail:justify-center @side:justify-start">
            <Logo />
            <span className="nav-brand-text min-w-0">
              <span className="block text-sm font-semibold leading-4">{t('app.name')}</span>
              <span className="block truncate text-xs text-muted">{t('app.tagline')}</span>
            </span>
          </div>
          {PAGES.map((p) => {
            const Icon = p.icon;
            const current = p.id === active;
            return (
              <button
                key={p.id}
                type="button"
                data-testid={`nav-${p.id}`}
                aria-current={current ? 'page' : undefined}
                title={t(p.label)}
                onClick={() => go(p.id)}
                className={`nav-page flex shrink-0 items-center gap-2.5 rounded-md px-2 py-1.5 text-sm @rail:px-2.5 transition @rail:justify-center @rail:py-2.5 @side:justify-start @side:py-2 ${
                  current ? 'bg-accent-soft font-medium text-accent' : 'text-muted hover:bg-sunken hover:text-fg'
                }`}
              >
                <span className="inline-flex" aria-hidden="true">
                  <Icon />
                </span>
                {/* Under 620 px the top bar shows icons only (the name stays for screen readers and in the tooltip). */}
                <span className="nav-label-short @max-rail:sr-only">{t(p.short ?? p.label)}</span>
                <span className="nav-label-long">{t(p.label)}</span>
              </button>
            );
          })}
          <div className="ml-auto flex shrink-0 items-center gap-1 @rail:mt-auto @rail:ml-0 @rail:flex-col @side:flex-row">
            <button
              type="button"
              data-testid="toggle-lang"
              data-allow-en
              onClick={() => setLang(lang === 'zh' ? 'en' : 'zh')}
              title={t('nav.lang')}
              className="rounded-md px-2 py-1.5 text-xs text-muted hover:bg-sunken hover:text-fg"
            >
              <span className="nav-label-long">{t('nav.lang')}</span>
              <span className="@side:hidden">{lang === 'zh' ? 'EN' : '中'}</span>
            </button>
            <button
              type="button"
              data-testid="toggle-theme"
              onClick={toggleTheme}
              title={theme === 'dark' ? t('nav.theme.light') : t('nav.theme.dark')}
              aria-label={theme === 'dark' ? t('nav.theme.light') : t('nav.theme.dark')}
              className="rounded-md px-2 py-1.5 text-muted hover:bg-sunken hover:text-fg"
            >
              {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
            </button>
          </div>
        </nav>
        <main className="shell-main" id="main" tabIndex={-1}>
          <section className="page" data-page="agent" data-testid="page-agent" data-active={active === 'agent'}>
            <AgentViewPage />
          </section>
          <section className="page" data-page="library" data-testid="page-library" data-active={active === 'library'}>
            <LibraryPage />
          </section>
          <section className="page" data-page="recall" data-testid="page-recall" data-active={active === 'recall'}>
            <RecallPage />
          </section>
          <section className="page" data-page="index" data-testid="page-index" data-active={active === 'index'}>
            <IndexPage />
          </section>
          <section className="page" data-page="settings" data-testid="page-settings" data-active={active === 'settings'}>
            <SettingsPage onGoToIndex={() => go('index')} />
          </section>
        </main>
      </div>
    </div>
  );
}
