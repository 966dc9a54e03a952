// The tab body: the console in an iframe, a line saying which source is used (with a switch), and a
// start button when the console is not running. React comes from the host through the module
// loader's `require`, never bundled.
import { appearanceMessage, isAppearanceRequest, readAppearance, watchAppearance, withAppearance, type Appearance, type DocumentLike } from './appearance.ts';
import { drawerPlacement, reserveBeside } from './drawer.ts';
import { describeFailure, readJsonAnswer } from './failure.ts';
import { chipLabel, withoutNoteBlocks, type NoteChip } from './note-chip.ts';
import { recheckText, type RecheckOutcome } from './recheck-text.ts';
import { chooseSource, describeSource, iframeSrc, type ClientConfig, type ConsoleSource } from './source.ts';

export const CLIENT_CONFIG_PATH = '/engram/client-config';

interface ReactLike {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (next: T | ((prev: T) => T)) => void];
  useEffect(effect: () => void | (() => void), deps?: unknown[]): void;
  Fragment?: unknown;
}

declare const require: (id: string) => unknown;

/** The host's React, through the loader's require (an ESM-shaped module is unwrapped). */
export function hostReact(): ReactLike {
  const mod = require('react') as ReactLike & { default?: ReactLike };
  return typeof mod?.createElement === 'function' ? mod : (mod.default as ReactLike);
}

/** The module id of the host's token-styled UI atoms (seeded beside react: packages/client/web/src/seed.ts). */
const PRIMITIVES = '@deepseek-ai/dsh-client-ui-primitives';

/**
 * The host's Button where the loader offers it, else null (a host without that seed throws from
 * require). The id goes through a variable so the bundler leaves the lookup to the host's loader.
 */
export function hostButton(): unknown {
  try {
    const id: string = PRIMITIVES;
    const mod = require(id) as { Button?: unknown } | undefined;
    return typeof mod?.Button === 'function' ? mod.Button : null;
  } catch {
    return null;
  }
}

/** react-dom's createPortal where the loader offers it (a platform seed in the web UI), else null. */
function hostCreatePortal(): ((child: unknown, container: unknown) => unknown) | null {
  try {
    const id: string = 'react-dom';
    const mod = require(id) as { createPortal?: unknown; default?: { createPortal?: unknown } } | undefined;
    const create = mod?.createPortal ?? mod?.default?.createPortal;
    return typeof create === 'function' ? (create as (child: unknown, container: unknown) => unknown) : null;
  } catch {
    return null;
  }
}

const pageProtocol = (): string | undefined => (globalThis as { location?: { protocol?: string } }).location?.protocol;

async function loadConfig(): Promise<ClientConfig> {
  const res = await fetch(CLIENT_CONFIG_PATH, { credentials: 'same-origin' });
  return readJsonAnswer<ClientConfig>(CLIENT_CONFIG_PATH, res);
}

/** One read of the client config per page for the small per-answer buttons (a failure is retried next time). */
let sharedConfig: Promise<ClientConfig> | null = null;
function configOnce(): Promise<ClientConfig> {
  sharedConfig ??= loadConfig().catch((error: unknown) => {
    sharedConfig = null;
    throw error;
  });
  return sharedConfig;
}

/** How often, and how many times, a started console is asked whether it answers (about 30 s in all). */
const START_POLL_MS = 1500;
const START_POLLS = 20;

/** Whether the console answers within START_POLLS reads of the client config (it reports reachability). */
async function waitForConsole(): Promise<boolean> {
  for (let i = 0; i < START_POLLS; i++) {
    await new Promise((resolve) => setTimeout(resolve, START_POLL_MS));
    try {
      if ((await loadConfig()).reachable) return true;
    } catch {
      // The host did not answer this time: ask again.
    }
  }
  return false;
}

/** 「。详见日志 <file>」 with the plugin's log file, asked from the host's logs route ('' when it cannot say). */
async function logHint(config: ClientConfig): Promise<string> {
  try {
    const path = config.logsPath ?? '/engram/logs';
    const res = await fetch(`${path}?lines=1`, { credentials: 'same-origin' });
    const body = await readJsonAnswer<{ file?: string | null }>(path, res);
    return body.file ? `。详见日志 ${body.file}` : '';
  } catch {
    return '';
  }
}

const bar = { display: 'flex', gap: '8px', alignItems: 'center', padding: '6px 10px', fontSize: '12px', borderBottom: '1px solid rgba(128,128,128,.25)' };
const button = { fontSize: '12px', padding: '2px 8px', cursor: 'pointer' };

const hostDocument = (): DocumentLike | null => (globalThis as { document?: DocumentLike }).document ?? null;

interface FrameLike {
  contentWindow?: { postMessage(message: unknown, targetOrigin: string): void } | null;
}

/**
 * Tells the framed console the host's language and theme (appearance.ts). Any origin may receive it:
 * it is cosmetic, and the frame may have moved on (the light view hands over to the full console).
 */
function tellFrame(frame: FrameLike | null, appearance: Appearance): void {
  if (!appearance.lang && !appearance.theme) return;
  try {
    frame?.contentWindow?.postMessage(appearanceMessage(appearance), '*');
  } catch (e) {
    console.warn('engram: telling the console the host appearance', e);
  }
}

export function ConsolePane(): unknown {
  const React = hostReact();
  const h = React.createElement;
  const [config, setConfig] = React.useState<ClientConfig | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [preferred, setPreferred] = React.useState<ConsoleSource | null>(null);
  const [note, setNote] = React.useState<string | null>(null);
  const [reloads, setReloads] = React.useState(0);
  const [loadedSrc, setLoadedSrc] = React.useState('');
  // The host's language and theme: in the frame's URL when it opens, by message when they change
  // (a new URL would reload the console and lose what the person was doing there).
  const [appearance, setAppearance] = React.useState<Appearance>(readAppearance(hostDocument()));
  const [opened, setOpened] = React.useState<{ base: string; src: string } | null>(null);
  const [frame, setFrame] = React.useState<FrameLike | null>(null);
  React.useEffect(() => watchAppearance(hostDocument(), setAppearance), []);
  React.useEffect(() => tellFrame(frame, appearance), [frame, appearance.lang, appearance.theme]);
  // The framed page asks once it listens: a change made before then was posted to nobody.
  React.useEffect(() => {
    const win = globalThis as { addEventListener?: (type: string, fn: (e: { data?: unknown; source?: unknown }) => void) => void; removeEventListener?: (type: string, fn: (e: { data?: unknown; source?: unknown }) => void) => void };
    if (typeof win.addEventListener !== 'function') return undefined;
    const onMessage = (e: { data?: unknown; source?: unknown }) => {
      if (isAppearanceRequest(e.data, e.source, frame?.contentWindow)) tellFrame(frame, appearance);
    };
    win.addEventListener('message', onMessage);
    return () => win.removeEventListener?.('message', onMessage);
  }, [frame, appearance.lang, appearance.theme]);

  React.useEffect(() => {
    let live = true;
    loadConfig().then(
      (c) => live && (setConfig(c), setError(null)),
      (e: unknown) => live && (console.warn('engram: client config', e), setError(describeFailure(e))),
    );
    return () => {
      live = false;
    };
  }, [reloads]);

  if (error) return h('div', { style: { padding: '12px' }, 'data-engram': 'error' }, `Engram 控制台不可用:读取 ${CLIENT_CONFIG_PATH} 失败,${error}`);
  if (!config) return h('div', { style: { padding: '12px' }, 'data-engram': 'loading' }, '正在载入 Engram 记忆…');

  const source = chooseSource(pageProtocol(), config.consoleUrl, preferred);
  const other: ConsoleSource = source === 'direct' ? 'proxy' : 'direct';
  const start = async () => {
    setNote('正在启动控制台…');
    try {
      const res = await fetch(config.startPath, { method: 'POST', credentials: 'same-origin', headers: { [config.tokenHeader]: config.token } });
      const body = await readJsonAnswer<{ ok: boolean; message?: string }>(config.startPath, res, true);
      if (!body.ok) {
        setNote(`控制台没能启动(${body.message ?? `宿主回答 HTTP ${res.status}`})${await logHint(config)}`);
        return;
      }
      setNote('控制台已启动,正在连接…(第一次启动要先构建,可能要几分钟)');
      if (await waitForConsole()) {
        setNote(null);
        setReloads((n) => n + 1);
      } else setNote(`控制台启动后一直没有回应(进程可能已退出,或仍在构建);先用着简易视图${await logHint(config)}`);
    } catch (e) {
      console.warn('engram: console start', e);
      setNote(`控制台没能启动:${describeFailure(e)}${await logHint(config)}`);
    }
  };
  const base = iframeSrc(source, config);
  const src = opened?.base === base ? opened.src : withAppearance(base, appearance);
  if (opened?.src !== src) setOpened({ base, src });

  return h(
    'div',
    { style: { display: 'flex', flexDirection: 'column', height: '100%', width: '100%' }, 'data-engram': 'pane' },
    h(
      'div',
      { style: bar },
      h('span', { 'data-engram': 'source' }, `控制台:${describeSource(source, config)}`),
      h('button', { style: button, onClick: () => setPreferred(other), 'data-engram': 'switch' }, other === 'proxy' ? '改为经宿主代理' : '改为直连'),
      config.reachable || config.startable === false ? null : h('button', { style: button, onClick: start, 'data-engram': 'start' }, '启动控制台'),
      loadedSrc === src ? null : h('span', { style: { opacity: 0.7 }, 'data-engram': 'frame-loading' }, '正在打开…'),
      note ? h('span', { 'data-engram': 'note' }, note) : null,
    ),
    h('iframe', {
      src,
      title: 'Engram 控制台',
      ref: setFrame,
      // A change that came while the page loaded is not in its URL: say it again once it is there.
      onLoad: () => (setLoadedSrc(src), tellFrame(frame, appearance)),
      style: { flex: '1 1 auto', border: '0', width: '100%' },
      'data-engram': 'frame',
    }),
  );
}

const iconButton = { fontSize: '12px', padding: '0 6px', cursor: 'pointer', background: 'transparent', border: '0', opacity: 0.75 };
const drawerLook = { position: 'fixed', top: '0', right: '0', bottom: '0', display: 'flex', flexDirection: 'column', background: 'var(--dsw-alias-bg-base, var(--background, #fff))' };
/**
 * Where the drawer sits among the host's layers (ui-primitives, 0.1.1-rc.2): the page's own layers
 * go up to 20 (AppFrame.module.css), tooltips, menus and hover cards are at 100, the Modal overlay at
 * 1000 (Modal.module.css:5), menus' popups and toasts at 1100. Beside the conversation the drawer is
 * a column of the page: under all of them. Over it, above the page but still under the host's
 * dialogs: a dialog opened from the host (设置) is never half hidden behind the drawer.
 */
const DRAWER_LAYER = { beside: 90, over: 999 } as const;
const viewportWidth = (): number => (globalThis as { innerWidth?: number }).innerWidth ?? 1280;
const hostPage = (): Parameters<typeof reserveBeside>[0] | null => (globalThis as { document?: Parameters<typeof reserveBeside>[0] }).document ?? null;

/**
 * The session-header entry. Where the host has the right-sidebar tab, it opens it; elsewhere it
 * opens the console in the plugin's drawer (drawer.ts: beside the conversation where the host would
 * put a panel there, over it only in narrow windows). The button reads as pressed only while open.
 */
export function ConsoleDrawerButton(openTab: () => (() => void) | null): () => unknown {
  return function EngramHeaderButton(): unknown {
    const React = hostReact();
    const HostButton = hostButton();
    const h = React.createElement;
    const [open, setOpen] = React.useState(false);
    const [viewport, setViewport] = React.useState(viewportWidth());
    const placement = drawerPlacement(viewport);
    React.useEffect(() => {
      if (!open) return undefined;
      const onResize = () => setViewport(viewportWidth());
      const win = globalThis as { addEventListener?: (t: string, f: () => void) => void; removeEventListener?: (t: string, f: () => void) => void };
      win.addEventListener?.('resize', onResize);
      return () => win.removeEventListener?.('resize', onResize);
    }, [open]);
    // Beside the messages the host page gives up the drawer's width; closed, it gets it back.
    React.useEffect(() => {
      const page = hostPage();
      if (!open || placement.mode !== 'beside' || !page) return undefined;
      return reserveBeside(page, placement.width);
    }, [open, placement.mode, placement.width]);
    const onClick = () => {
      const tab = openTab();
      if (tab) return tab();
      setViewport(viewportWidth()); // the window may have changed while the drawer was closed
      setOpen((v) => !v);
    };
    const common = { onClick, title: 'Engram 记忆控制台', 'aria-pressed': open, 'data-engram': 'open-console' };
    const look = { ...drawerLook, zIndex: DRAWER_LAYER[placement.mode], width: `${placement.width}px`, ...(placement.mode === 'beside' ? { borderLeft: '1px solid var(--dsw-alias-border-l2, rgba(128,128,128,.3))' } : { boxShadow: '-4px 0 16px rgba(0,0,0,.2)' }) };
    return h(
      'span',
      { 'data-engram': 'header' },
      // The host's own toolbar button where it has one, so the entry reads like its neighbours:
      // 'ghost' (plain) while closed, the filled 'toolbar' capsule while the drawer is open.
      HostButton
        ? h(HostButton, { ...common, variant: open ? 'toolbar' : 'ghost', size: 'sm' }, '记忆')
        : h('button', { ...common, style: { ...button, fontWeight: open ? 600 : 400 } }, '记忆'),
      open
        ? h(
            'div',
            { style: look, 'data-engram': 'drawer', 'data-placement': placement.mode },
            h('div', { style: bar }, h('span', null, 'Engram 记忆'), h('button', { style: { ...button, marginLeft: 'auto' }, onClick: () => setOpen(false), 'data-engram': 'close' }, '关闭')),
            h(ConsolePane, null),
          )
        : null,
    );
  };
}

interface RecheckBody {
  ok: boolean;
  error?: string;
  result?: RecheckOutcome;
  /** The found passages verbatim (Markdown), for 打开原文. */
  excerpt?: string;
}

const RECHECK_ERRORS: Record<string, string> = {
  disabled: '跨压缩记忆未开启',
  'unknown-session': '这个会话没有可再查的压缩历史',
  'no-question': '没有可以再查的问题',
  failed: '再查失败,详见插件日志',
};

const RECHECK_PATH = '/engram/compaction/recheck';

/**
 * Whether look-again has anything to search in a session (it was compacted), asked once per session
 * and page. A session that was not compacted is asked again when a newer answer shows (a compaction
 * may have happened since). An answer that cannot be read shows the button: the click explains.
 */
const availability = new Map<string, { messageIds: Set<string>; answer: Promise<boolean> }>();
function lookAgainAvailable(sessionId: string, messageId: string | undefined): Promise<boolean> {
  const known = availability.get(sessionId);
  if (known && (messageId === undefined || known.messageIds.has(messageId))) return known.answer;
  const ask = async (): Promise<boolean> => {
    try {
      const config = await configOnce();
      const path = config.recheckPath ?? RECHECK_PATH;
      const res = await fetch(`${path}?sessionId=${encodeURIComponent(sessionId)}`, { credentials: 'same-origin' });
      const body = await readJsonAnswer<{ available?: unknown }>(path, res);
      return body.available !== false;
    } catch (e) {
      console.warn('engram: look-again availability', e);
      return true;
    }
  };
  const previous = known?.answer ?? Promise.resolve(false);
  const answer = previous.then((was) => (was ? true : ask()));
  const messageIds = new Set(known?.messageIds ?? []);
  if (messageId !== undefined) messageIds.add(messageId);
  availability.set(sessionId, { messageIds, answer });
  return answer;
}

const excerptBox = {
  maxHeight: '320px', overflow: 'auto', whiteSpace: 'pre-wrap', fontSize: '12px', lineHeight: '1.5', margin: '6px 0 0', padding: '8px 10px',
  border: '1px solid rgba(128,128,128,.3)', borderRadius: '6px', background: 'rgba(128,128,128,.06)',
};

/** The button reads like the host's row actions (MessageIconActions.module.css .action: 28 px tall, round, tertiary label). */
const rowButton = {
  display: 'inline-flex', alignItems: 'center', height: '28px', padding: '0 8px', border: 'none', borderRadius: '28px', background: 'transparent',
  color: 'var(--dsw-alias-label-tertiary, inherit)', fontSize: '13px', whiteSpace: 'nowrap', cursor: 'pointer',
};
const panelLook = { display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: '8px', rowGap: '2px', fontSize: '12px', lineHeight: '20px', color: 'var(--dsw-alias-label-secondary, inherit)' };

interface DomNode {
  closest?(selector: string): DomNode | null;
  parentElement?: DomNode | null;
  after?(node: unknown): void;
  remove?(): void;
  ownerDocument?: { createElement(tag: string): DomNode & { setAttribute(name: string, value: string): void; style: Record<string, string> } } | null;
}

/**
 * Where what look-again found goes: a box of its own right after the host's action row. The row is a
 * flex line of fixed height (MessageIconActions.module.css .actions: height 28px, align-items center;
 * TurnTailNodeView.tsx:36-50), so a note or passages inside it were drawn over the answer above; the
 * row's parent is the turn tail's flex column (TurnTailNodeView.module.css .root, gap 16px), where a
 * box after the row is a line of its own and pushes what follows down. The slot's anchor
 * (`[data-slot]`, display: contents, ui-renderer scoped-slots.tsx:676) finds the row. Made only while
 * there is something to show: an empty box would still take the column's gap.
 */
function panelAfterRow(anchor: DomNode): DomNode | null {
  const row = anchor.closest?.('[data-slot="conversation.chat.assistant-actions"]')?.parentElement ?? anchor.parentElement ?? null;
  const doc = anchor.ownerDocument;
  if (!row || typeof row.after !== 'function' || !doc) return null;
  const box = doc.createElement('div');
  box.setAttribute('data-engram', 'recheck-panel');
  box.style.minWidth = '0';
  row.after(box);
  return box;
}

/**
 * "Look again" under an assistant answer of a compacted session (nothing on other sessions):
 * searches the session's compacted history for its last question again. What is found goes into the
 * session's next step; the line offers 打开原文 (the found passages verbatim) and 知道了 (fold the line).
 * The button sits in the host's action row; the note and the passages in a box under it (panelAfterRow).
 */
export function RecheckAction(props: { sessionId?: string; messageId?: string }): unknown {
  const React = hostReact();
  const h = React.createElement;
  const [shown, setShown] = React.useState<boolean | null>(null);
  const [note, setNote] = React.useState<string | null>(null);
  const [skipped, setSkipped] = React.useState<string | null>(null);
  const [excerpt, setExcerpt] = React.useState<string>('');
  const [open, setOpen] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const [anchor, setAnchor] = React.useState<DomNode | null>(null);
  const [panel, setPanel] = React.useState<DomNode | null>(null);
  const createPortal = hostCreatePortal();
  React.useEffect(() => {
    let live = true;
    if (props.sessionId) void lookAgainAvailable(props.sessionId, props.messageId).then((yes) => live && setShown(yes));
    return () => {
      live = false;
    };
  }, [props.sessionId, props.messageId]);
  const hasPanel = note !== null;
  React.useEffect(() => {
    if (!hasPanel || !anchor || !createPortal) return undefined;
    const box = panelAfterRow(anchor);
    setPanel(box);
    return () => {
      box?.remove?.();
      setPanel(null);
    };
  }, [hasPanel, anchor, createPortal !== null]);
  if (!props.sessionId || shown !== true) return null;
  const dismiss = () => {
    setNote(null);
    setSkipped(null);
    setExcerpt('');
    setOpen(false);
  };
  const run = async () => {
    if (busy) return;
    setBusy(true);
    dismiss();
    setNote('正在查找…');
    try {
      const config = await configOnce();
      const path = config.recheckPath ?? RECHECK_PATH;
      const res = await fetch(path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', [config.tokenHeader]: config.token },
        body: JSON.stringify({ sessionId: props.sessionId }),
      });
      // Refusals come as JSON with a known error; anything else (guard, proxy page) shows the status.
      const body = await readJsonAnswer<RecheckBody>(path, res, true);
      if (body.ok && body.result) {
        const text = recheckText(body.result, readAppearance(hostDocument()).lang);
        setNote(text.note);
        setSkipped(text.skipped);
        setExcerpt(body.result.found ? (body.excerpt ?? '') : '');
      } else setNote(RECHECK_ERRORS[body.error ?? ''] ?? `再查失败:宿主回答 HTTP ${res.status}`);
    } catch (e) {
      console.warn('engram: look again', e);
      setNote(`再查失败:${describeFailure(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const found = note === null
    ? null
    : h(
        'div',
        { style: panelLook },
        h('span', { 'data-engram': 'recheck-note' }, note),
        skipped !== null ? h('span', { 'data-engram': 'recheck-skipped', style: { opacity: 0.75 } }, skipped) : null,
        excerpt !== '' ? h('button', { style: iconButton, onClick: () => setOpen((v) => !v), 'data-engram': 'recheck-open' }, open ? '收起原文' : '打开原文') : null,
        !busy ? h('button', { style: iconButton, onClick: dismiss, 'data-engram': 'recheck-dismiss' }, '知道了') : null,
        open && excerpt !== '' ? h('pre', { style: { ...excerptBox, flexBasis: '100%' }, 'data-engram': 'recheck-excerpt' }, excerpt) : null,
      );
  // In the page: under the row through a portal. Without a DOM or react-dom (tests): in place.
  const placed = found === null ? null : createPortal && anchor ? (panel ? createPortal(found, panel) : null) : found;
  return h(
    'span',
    { 'data-engram': 'recheck', ref: setAnchor, style: { display: 'inline-flex', alignItems: 'center' } },
    h('button', { style: rowButton, onClick: run, disabled: busy, title: '再查一次:在压缩前的历史里重新找', 'data-engram': 'recheck-button' }, '↻ 再查'),
    placed,
  );
}

const chip = { display: 'inline-flex', alignItems: 'center', gap: '4px', fontSize: '12px', padding: '1px 8px', margin: '4px 0', borderRadius: '10px', cursor: 'pointer', border: '1px solid rgba(128,128,128,.35)', background: 'rgba(128,128,128,.08)' };

/** One cleaned copy per message node, so the native renderer (memoised on its props) sees a stable node. */
const cleanedNodes = new WeakMap<object, ReturnType<typeof withoutNoteBlocks>>();
function cleanedOf(node: unknown): ReturnType<typeof withoutNoteBlocks> {
  if (node === null || typeof node !== 'object') return { node: node as never, notes: [] };
  let known = cleanedNodes.get(node);
  if (!known) {
    known = withoutNoteBlocks(node as Parameters<typeof withoutNoteBlocks>[0]);
    cleanedNodes.set(node, known);
  }
  return known;
}

/** A chip for one note block; `open` shows the note's text under it. */
function noteChipView(h: ReactLike['createElement'], c: NoteChip, i: number, open: boolean, toggle: () => void): unknown {
  return h(
    'div',
    { key: `note-${i}`, 'data-engram': 'note-chip' },
    h('button', { style: chip, onClick: toggle, disabled: c.open, title: '这条回答写进了 Engram 记忆', 'data-engram': 'note-chip-button' }, `✓ ${chipLabel(c)}`),
    open ? h('pre', { style: excerptBox, 'data-engram': 'note-chip-body' }, c.body) : null,
  );
}

/**
 * The host's assistant-message renderer, shadowed: the native one renders a copy of the message
 * without note blocks, and each block is a chip after it (a click opens the note). The session is
 * not touched.
 */
export function AssistantWithNoteChips(native: unknown): (props: Record<string, unknown>) => unknown {
  return function EngramAssistantNode(props: Record<string, unknown>): unknown {
    const React = hostReact();
    const h = React.createElement;
    const [opened, setOpened] = React.useState<number>(-1);
    const { node, notes } = cleanedOf(props.node);
    const view = h(native, notes.length === 0 ? props : { ...props, node });
    if (notes.length === 0) return view;
    const chips = notes.map((c, i) => noteChipView(h, c, i, opened === i, () => setOpened((now) => (now === i ? -1 : i))));
    return h(React.Fragment ?? 'div', null, view, ...chips);
  };
}
