// @engram/plugin client entry. The host's web UI runs lib/client.js as a classic script; the pack
// script wraps this module's CommonJS body in `window.__ModuleLoader__.load({ id, factory })`
// (packages/client/modules/src/client/system.ts in the host), and react comes through the
// factory's `require`. A client module exports exactly name, inject and apply.
//
// `inject` is an array (cordis reads an object's keys as service names): only `slots`, which every
// web host has. Optional services are feature-detected with ctx.inject([...], cb), since reading a
// service that was not injected throws ("cannot get property … without inject").
//
// Entries, where the host has the slot (names and kinds from the host's slot catalog,
// packages/extensions/cordis-client-runner/src/client/slot-catalog.ts):
// - a right-sidebar tab (sidebarRightTabs + the 'sidebar.right.pane.tab' slot, same key) on hosts
//   that have that service; elsewhere a settings section (a list slot: it needs `id`);
// - a button in the session header (`conversation.session.header.actions`) that opens the console:
//   in the tab where it exists, else in a drawer over the page;
// - under each finished assistant answer (`conversation.chat.assistant-actions`), "look again":
//   POST /engram/compaction/recheck for this session (only where the session was compacted);
// - the assistant message renderer (`conversation.chat.node`, key 'assistant-step'), shadowed so a
//   note block in an answer shows as a 「已记下 · 标题」 chip (note-chip.ts).
import { AssistantWithNoteChips, ConsoleDrawerButton, ConsolePane, RecheckAction } from './pane.ts';

const TAB_ID = 'engram';
const SECTION_ID = 'engram';
const HEADER_ACTION_ID = 'engram-console';
const ANSWER_ACTION_ID = 'engram-recheck';
const TITLE = 'Engram 记忆';
const CHAT_NODE = 'conversation.chat.node';
const ASSISTANT_KEY = 'assistant-step';
/** Below the native renderer's 0: this one renders, and renders the native one inside. */
const NOTE_CHIP_PRIORITY = -5;

type Dispose = (() => void) | void;

interface SlotsService {
  register(options: { name: string; key?: string; id?: string; order?: number; label?: string; priority?: number }, component: unknown): Dispose;
  inject(slot: string, callback: () => Dispose): Dispose;
  /** The host's raw registrations of a slot (ui-slots SlotCore.entries); absent on hosts without it. */
  entries?(slot: string): readonly SlotEntry[];
}

/** A stored registration: ui-slots keeps locale / inject / store beside `options`, the simulator inside it. */
interface SlotEntry {
  options: { key?: string; priority?: number; [option: string]: unknown };
  component: unknown;
  [field: string]: unknown;
}

/** What decides the props the host composes for an entry: its locale namespace, injections and store. */
function registrationProps(entry: SlotEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ['locale', 'inject', 'store']) {
    const value = entry[field] ?? entry.options[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

interface ClientContext {
  readonly slots: SlotsService;
  inject(deps: string[], callback: (scoped: any) => Dispose): Dispose;
  effect?(execute: () => Dispose): unknown;
}

export const name = 'engram';
export const inject = ['slots'];

const call = (dispose: Dispose): void => {
  if (typeof dispose === 'function') dispose();
};

/** Runs `setup` now and its disposer when `scoped` goes away (ctx.effect where the host has it). */
function whileLive(scoped: { effect?: (execute: () => Dispose) => unknown }, setup: () => () => void): Dispose {
  if (typeof scoped.effect === 'function') {
    scoped.effect(setup);
    return undefined;
  }
  return setup();
}

export function apply(ctx: ClientContext): void {
  const slots = ctx.slots;
  let tabbed = false;
  let openTab: (() => void) | null = null;
  let section: Dispose = undefined;
  const showSection = () => {
    if (tabbed || section) return;
    section = slots.inject('settings.section', () => slots.register({ name: 'settings.section', id: SECTION_ID, order: 900, label: TITLE }, ConsolePane));
  };
  const hideSection = () => {
    call(section);
    section = undefined;
  };

  // Newer hosts: a right-sidebar tab; the settings section is the fallback while it is missing.
  // cordis ignores what an inject callback returns: teardown goes through the scoped ctx.effect.
  ctx.inject(['sidebarRightTabs'], (scoped) =>
    whileLive(scoped, () => {
      tabbed = true;
      hideSection();
      const offTab = scoped.sidebarRightTabs.register({ id: TAB_ID, kind: TAB_ID, title: () => TITLE, priority: 'extension' });
      const offBody = scoped.slots.register({ name: 'sidebar.right.pane.tab', key: TAB_ID }, ConsolePane);
      return () => {
        call(offBody);
        call(offTab);
        tabbed = false;
        showSection();
      };
    }),
  );
  ctx.inject(['sidebarRight'], (scoped) =>
    whileLive(scoped, () => {
      openTab = () => scoped.sidebarRight.openTab(TAB_ID);
      return () => {
        openTab = null;
      };
    }),
  );
  showSection();

  // The way in from the session view: a header button (tab where it exists, else a drawer).
  const header = ConsoleDrawerButton(() => (tabbed ? openTab : null));
  slots.inject('conversation.session.header.actions', () =>
    slots.register({ name: 'conversation.session.header.actions', id: HEADER_ACTION_ID, order: 100, label: TITLE }, header),
  );
  // Note blocks in an answer read as a chip: the native assistant renderer, shadowed one priority
  // lower (lowest renders), gets a copy of the message without them. No native renderer, no chip.
  slots.inject(CHAT_NODE, () => {
    const native = slots.entries?.(CHAT_NODE).find((e) => e.options.key === ASSISTANT_KEY && (e.options.priority ?? 0) === 0);
    if (!native) return undefined;
    // With the native entry's `locale` (and injections, store): the host composes a component's
    // props (`t`, …) from its registration, and the native renderer gets what this one got. Without
    // them the host's AssistantMarkdown crashed ("t is not a function", real 0.1.1-rc.2).
    return slots.register({ ...registrationProps(native), name: CHAT_NODE, key: ASSISTANT_KEY, priority: NOTE_CHIP_PRIORITY }, AssistantWithNoteChips(native.component));
  });
  // "Look again" across compaction, under each finished answer of the current session.
  slots.inject('conversation.chat.assistant-actions', () =>
    slots.register({ name: 'conversation.chat.assistant-actions', id: ANSWER_ACTION_ID, order: 100, label: '再查一次' }, RecheckAction),
  );
}
