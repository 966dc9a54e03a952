'use client';
// Client root: providers (API, language, toasts, index-run stream) around the shell.
import { I18nProvider } from '../client/i18n.tsx';
import { IndexRunProvider } from '../client/index-run.tsx';
import { ToastProvider } from '../client/toast.tsx';
import { ApiProvider } from '../client/trpc.tsx';
import { WorkspaceProvider } from '../client/workspace.tsx';
import { AppShell } from './AppShell.tsx';

export function ConsoleApp() {
  return (
    <ApiProvider>
      <I18nProvider>
        <ToastProvider>
          <IndexRunProvider>
            <WorkspaceProvider>
              <AppShell />
            </WorkspaceProvider>
          </IndexRunProvider>
        </ToastProvider>
      </I18nProvider>
    </ApiProvider>
  );
}
