'use client';
// Client root: providers (API, language, toasts, rebuild stream) around the shell.
import { I18nProvider } from '../client/i18n.tsx';
import { RebuildProvider } from '../client/rebuild.tsx';
import { ToastProvider } from '../client/toast.tsx';
import { ApiProvider } from '../client/trpc.tsx';
import { WorkspaceProvider } from '../client/workspace.tsx';
import { AppShell } from './AppShell.tsx';

export function ConsoleApp() {
  return (
    <ApiProvider>
      <I18nProvider>
        <ToastProvider>
          <RebuildProvider>
            <WorkspaceProvider>
              <AppShell />
            </WorkspaceProvider>
          </RebuildProvider>
        </ToastProvider>
      </I18nProvider>
    </ApiProvider>
  );
}
