// The host's language and theme after the first load: `?lang=&theme=` set them when the frame opens;
// a host that changes its own later posts `{ type: 'engram:appearance', lang?, theme? }` to the frame
// and the console follows (not stored: the host decides, as with the URL). Cosmetic only, so any
// parent may send it; anything else in a message is ignored.
export type HostAppearance = { lang?: 'zh' | 'en'; theme?: 'light' | 'dark' };

export const APPEARANCE_MESSAGE = 'engram:appearance';
/** Fired on window when the host changed the theme (the theme hook re-reads the document). */
export const THEME_CHANGED = 'engram:theme-changed';

/** The appearance a message asks for, or null when it is not one (pure). */
export function appearanceOf(data: unknown): HostAppearance | null {
  if (!data || typeof data !== 'object' || (data as { type?: unknown }).type !== APPEARANCE_MESSAGE) return null;
  const { lang, theme } = data as { lang?: unknown; theme?: unknown };
  const out: HostAppearance = {};
  if (lang === 'zh' || lang === 'en') out.lang = lang;
  if (theme === 'light' || theme === 'dark') out.theme = theme;
  return out.lang || out.theme ? out : null;
}

/**
 * Sent to the parent once the console listens: a host that changed its appearance after setting the
 * frame's URL but before this page's script ran (its message then went unheard) answers with the
 * current one. Carries nothing.
 */
export const APPEARANCE_REQUEST = 'engram:appearance-request';

/** Listens for the host's messages (only from the parent frame), then asks for the current appearance; returns the unsubscribe. */
export function onHostAppearance(apply: (a: HostAppearance) => void): () => void {
  const listener = (e: MessageEvent) => {
    if (typeof window === 'undefined' || window.parent === window || e.source !== window.parent) return;
    const a = appearanceOf(e.data);
    if (a) apply(a);
  };
  window.addEventListener('message', listener);
  if (window.parent !== window) {
    try {
      window.parent.postMessage({ type: APPEARANCE_REQUEST }, '*');
    } catch {
      // A parent that cannot be messaged keeps the URL's appearance.
    }
  }
  return () => window.removeEventListener('message', listener);
}
