// The messages the plugin adds to a step: exactly the host's user-message shape, role 'user', with
// a source that says who wrote them and why, so later steps (and dedupe) can recognise them.
import { randomUUID } from 'node:crypto';
import type { UserMessage } from '../core/host-types.ts';
import { PLUGIN_ID, type InjectedForm } from './view.ts';

export function pluginMessage(form: InjectedForm, text: string, extra: Record<string, unknown> = {}): UserMessage {
  return {
    // A fresh id every time: the host refuses a reused one.
    id: `${PLUGIN_ID}-${form}-${randomUUID()}`,
    role: 'user',
    content: [{ type: 'text', text }],
    source: { ...extra, kind: 'plugin', plugin: PLUGIN_ID, form },
  };
}
