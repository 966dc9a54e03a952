// localStorage that never throws. In a cross-site iframe (the DSH sidebar on another host) Chromium
// refuses storage to third-party frames: even reading `window.localStorage` raises SecurityError.
// The console must still run there, so every read and write goes through here and falls back to
// "nothing remembered" — the URL (`?ws=`, `?lang=`, `?theme=`) still carries the choice.

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readStored(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Stores `value` (or removes the key for null); false when the browser refused. */
export function writeStored(key: string, value: string | null): boolean {
  try {
    const s = store();
    if (!s) return false;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** A query parameter of the page's own URL (the host passes `?theme=` and `?lang=`). */
export function urlParam(name: string): string | null {
  try {
    return new URL(window.location.href).searchParams.get(name);
  } catch {
    return null;
  }
}
