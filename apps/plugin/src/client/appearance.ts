// The host's language and theme, handed to the framed console: `?lang=&theme=` when the frame opens,
// then a `{ type: 'engram:appearance', lang, theme }` message whenever the host changes either
// (the console's side: apps/console/src/client/host-appearance.ts and theme-boot.ts).
//
// Read from the host page's document, which the host keeps in step with its settings (0.1.1-rc.2):
// - language: `<html lang>` is 'zh-CN' or 'en', set on every locale change
//   (packages/client/locale/src/client/index.ts:120-132, syncDocumentLanguage);
// - theme: `<body data-ds-dark-theme>` is present exactly while the dark palette is on, and
//   `<html style="color-scheme">` says 'dark' or 'light' (packages/client/ui-layout/src/client/
//   theme-presenter.ts:37-42; before the plugins load, packages/client/ui-theme/src/boot-theme.ts:19-20).
// No service has to be injected for it, so it works on any host that keeps those attributes; on one
// that does not, nothing is passed and the console keeps its own choice.

export type Lang = 'zh' | 'en';
export type Theme = 'light' | 'dark';
export interface Appearance {
  lang?: Lang;
  theme?: Theme;
}

export const APPEARANCE_MESSAGE = 'engram:appearance';
/** What the console (and the light view) post to the host once they listen: answer with the appearance now. */
export const APPEARANCE_REQUEST = 'engram:appearance-request';

/** Whether a message event is the framed page asking for the appearance (pure). */
export function isAppearanceRequest(data: unknown, source: unknown, frameWindow: unknown): boolean {
  return frameWindow != null && source === frameWindow && !!data && typeof data === 'object' && (data as { type?: unknown }).type === APPEARANCE_REQUEST;
}
export const DARK_ATTRIBUTE = 'data-ds-dark-theme';

interface ElementLike {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  style?: { colorScheme?: string };
}

export interface DocumentLike {
  documentElement: ElementLike;
  body: ElementLike | null;
}

/** The host page's language and theme, as far as its document says (pure over the document). */
export function readAppearance(doc: DocumentLike | null | undefined): Appearance {
  if (!doc?.documentElement) return {};
  const out: Appearance = {};
  const lang = (doc.documentElement.getAttribute('lang') ?? '').toLowerCase();
  if (lang === 'en' || lang.startsWith('en-')) out.lang = 'en';
  else if (lang === 'zh' || lang.startsWith('zh-')) out.lang = 'zh';
  const scheme = (doc.documentElement.style?.colorScheme ?? '').trim();
  if (doc.body?.hasAttribute(DARK_ATTRIBUTE) || scheme === 'dark') out.theme = 'dark';
  else if (scheme === 'light') out.theme = 'light';
  return out;
}

export const sameAppearance = (a: Appearance, b: Appearance): boolean => a.lang === b.lang && a.theme === b.theme;

/** `src` with `lang` and `theme` set from `appearance` (others kept; an unknown one left out). */
export function withAppearance(src: string, appearance: Appearance): string {
  if (!appearance.lang && !appearance.theme) return src;
  const hash = src.indexOf('#');
  const [head, fragment] = hash < 0 ? [src, ''] : [src.slice(0, hash), src.slice(hash)];
  const query = head.indexOf('?');
  const [path, search] = query < 0 ? [head, ''] : [head.slice(0, query), head.slice(query + 1)];
  const params = new URLSearchParams(search);
  if (appearance.lang) params.set('lang', appearance.lang);
  if (appearance.theme) params.set('theme', appearance.theme);
  return `${path}?${params.toString()}${fragment}`;
}

/** The message the console listens for. */
export function appearanceMessage(appearance: Appearance): { type: typeof APPEARANCE_MESSAGE; lang?: Lang; theme?: Theme } {
  return { type: APPEARANCE_MESSAGE, ...(appearance.lang ? { lang: appearance.lang } : {}), ...(appearance.theme ? { theme: appearance.theme } : {}) };
}

interface ObserverLike {
  observe(target: unknown, options: { attributes: boolean; attributeFilter: string[] }): void;
  disconnect(): void;
}
type ObserverCtor = new (callback: () => void) => ObserverLike;

/**
 * Calls `onChange` with the new appearance whenever the host changes its language or theme (the
 * attributes above). Returns the stop; a page without MutationObserver is never watched.
 */
export function watchAppearance(doc: DocumentLike | null | undefined, onChange: (next: Appearance) => void, Observer?: ObserverCtor): () => void {
  const Ctor = Observer ?? (globalThis as { MutationObserver?: ObserverCtor }).MutationObserver;
  if (!doc?.documentElement || typeof Ctor !== 'function') return () => {};
  let last = readAppearance(doc);
  const observer = new Ctor(() => {
    const next = readAppearance(doc);
    if (sameAppearance(next, last)) return;
    last = next;
    onChange(next);
  });
  observer.observe(doc.documentElement, { attributes: true, attributeFilter: ['lang', 'style'] });
  if (doc.body) observer.observe(doc.body, { attributes: true, attributeFilter: [DARK_ATTRIBUTE] });
  return () => observer.disconnect();
}
