// @engram/plugin client entry, loaded by the host's window.__ModuleLoader__ (react through its
// require). A client module exports exactly name, inject and apply: a default export breaks boot.
//
// Newer hosts: a right-sidebar tab (sidebarRightTabs) whose body is registered on the
// 'sidebar.right.pane.tab' slot under the same key. Where that service is missing, the same body
// goes into a settings section.
import { ConsolePane } from './pane.ts';

const TAB_ID = 'engram';
const TITLE = 'Engram 记忆';

interface ClientContext {
  slots: {
    register(options: { name: string; key?: string; id?: string; order?: number; label?: string }, component: unknown): (() => void) | void;
    inject?(slot: string, callback: () => (() => void) | void): (() => void) | void;
  };
  sidebarRightTabs?: { register(tab: Record<string, unknown>): (() => void) | void };
  effect?(execute: () => unknown): unknown;
}

export const name = 'engram';
export const inject = { required: ['slots'], optional: ['sidebarRightTabs', 'sidebarRight'] };

export function apply(ctx: ClientContext): void {
  const effect = (register: () => unknown) => (typeof ctx.effect === 'function' ? ctx.effect(register) : register());
  const tabs = ctx.sidebarRightTabs;
  if (tabs && typeof tabs.register === 'function') {
    // Two registrations with one key: the tab kind, and the body the pane renders for it.
    effect(() => tabs.register({ id: TAB_ID, kind: TAB_ID, title: () => TITLE, priority: 'extension' }));
    effect(() => ctx.slots.register({ name: 'sidebar.right.pane.tab', key: TAB_ID }, ConsolePane));
    return;
  }
  const section = () => ctx.slots.register({ name: 'settings.section', key: TAB_ID, label: TITLE }, ConsolePane);
  if (typeof ctx.slots.inject === 'function') effect(() => ctx.slots.inject!('settings.section', section));
  else effect(section);
}
