'use client';
// Light/dark: the host's `?theme=` first, else follows the OS until the user picks one; the pick is
// kept in localStorage when the browser allows it (the boot script applied it before paint).
import { useCallback, useEffect, useState } from 'react';

import { THEME_CHANGED } from './host-appearance.ts';
import { writeStored } from './storage.ts';
import { THEME_KEY } from './theme-boot.ts';

export type Theme = 'light' | 'dark';

export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>('light');
  useEffect(() => {
    const read = () => setTheme(document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');
    read();
    window.addEventListener(THEME_CHANGED, read);
    return () => window.removeEventListener(THEME_CHANGED, read);
  }, []);
  const toggle = useCallback(() => {
    setTheme((current) => {
      const next: Theme = current === 'dark' ? 'light' : 'dark';
      document.documentElement.dataset.theme = next;
      writeStored(THEME_KEY, next);
      return next;
    });
  }, []);
  return [theme, toggle];
}
