'use client';
// The Library's keyboard: /, j / k, Enter (a focused row is a button) and Escape.
import { useEffect, type RefObject } from 'react';

const TYPING = 'input, textarea, select, [contenteditable="true"]';

/**
 * The Library's keys while its page is shown: / focuses the search, j / k move between the rows
 * (focus on the row, so Enter opens it), Escape closes the open row (an unsaved draft asks first:
 * the editor handles its own Escape before this sees it).
 */
export function useListKeys({ search, list, close }: { search: RefObject<HTMLInputElement | null>; list: RefObject<HTMLDivElement | null>; close: () => void }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const root = list.current;
      if (!root || root.closest('[data-active="false"]') || root.closest('[hidden]') || e.defaultPrevented) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (document.querySelector('[role="dialog"]')) return;
      const typing = Boolean(target?.closest(TYPING));
      if (e.key === 'Escape') {
        if (typing && target !== search.current) return;
        if (target === search.current) {
          search.current?.blur();
          return;
        }
        close();
        return;
      }
      if (typing) return;
      if (e.key === '/') {
        e.preventDefault();
        search.current?.focus();
        return;
      }
      if (e.key !== 'j' && e.key !== 'k') return;
      const rows = [...root.querySelectorAll<HTMLButtonElement>('[data-testid="memory-row-button"]')];
      if (rows.length === 0) return;
      e.preventDefault();
      const at = rows.findIndex((r) => r === document.activeElement);
      const next = at === -1 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (e.key === 'j' ? 1 : -1)));
      rows[next]!.focus();
      rows[next]!.scrollIntoView({ block: 'nearest' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [search, list, close]);
}
