'use client';
// A windowed list for thousands of rows: only the rows near the viewport are in the DOM, with spacers
// holding the height of the rest. Rows have different heights (an opened memory is tall), so each
// rendered row is measured and remembered; unmeasured rows count with an estimate. The page itself
// scrolls (the console lives in a sidebar iframe: one scrollbar, no nested scroll box).
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';

export function VirtualList<T>({
  items,
  keyOf,
  renderRow,
  estimate = 78,
  overscan = 10,
  onNearEnd,
  testId,
}: {
  items: readonly T[];
  keyOf: (item: T) => string;
  renderRow: (item: T, index: number) => ReactNode;
  estimate?: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  /** Called when the window reaches the last loaded rows (load the next page). */
  onNearEnd?: () => void;
  testId?: string;
}) {
  const list = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, bump] = useReducer((n: number) => n + 1, 0);
  const [range, setRange] = useState<[number, number]>([0, Math.min(items.length, overscan * 3)]);

  const offsets = useMemo(() => {
    const out = new Float64Array(items.length + 1);
    for (let i = 0; i < items.length; i++) out[i + 1] = out[i]! + (heights.current.get(keyOf(items[i]!)) ?? estimate);
    return out;
    // `measured` changes when a row's height is learnt.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items, keyOf, estimate, measured]);

  const update = useCallback(() => {
    const el = list.current;
    if (!el) return;
    if (el.offsetParent === null) {
      // A hidden page or tab has no geometry: render the first screenful so it is ready when shown.
      const end = Math.min(items.length, overscan * 3);
      setRange((r) => (r[1] >= end ? r : [0, end]));
      return;
    }
    const top = -el.getBoundingClientRect().top;
    const bottom = top + window.innerHeight;
    const find = (y: number) => {
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (offsets[mid + 1]! <= y) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const start = Math.max(0, find(Math.max(0, top)) - overscan);
    const end = Math.min(items.length, find(Math.max(0, bottom)) + 1 + overscan);
    setRange((r) => (r[0] === start && r[1] === end ? r : [start, end]));
  }, [items.length, offsets, overscan]);

  useLayoutEffect(update, [update]);
  // Shown again after a page or tab switch (its size changes from nothing): recompute the window.
  useEffect(() => {
    const el = list.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => update());
    ro.observe(el);
    return () => ro.disconnect();
  }, [update]);
  useEffect(() => {
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [update]);

  const [start, end] = [Math.min(range[0], items.length), Math.min(range[1], items.length)];
  useEffect(() => {
    if (onNearEnd && items.length > 0 && end >= items.length - overscan) onNearEnd();
  }, [end, items.length, overscan, onNearEnd]);

  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const e of entries) {
              const key = (e.target as HTMLElement).dataset.vkey;
              const h = Math.round((e.target as HTMLElement).offsetHeight);
              if (key && h > 0 && heights.current.get(key) !== h) {
                heights.current.set(key, h);
                changed = true;
              }
            }
            if (changed) bump();
          }),
    [],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);
  const measure = useCallback(
    (el: HTMLElement | null) => {
      if (el && observer) observer.observe(el);
    },
    [observer],
  );

  return (
    <div ref={list} role="list" data-testid={testId} data-total={items.length} data-rendered={end - start}>
      <div aria-hidden="true" style={{ height: offsets[start] }} />
      {items.slice(start, end).map((item, i) => (
        <div key={keyOf(item)} ref={measure} data-vkey={keyOf(item)} role="listitem" className="border-b border-line last:border-b-0" aria-posinset={start + i + 1} aria-setsize={items.length}>
          {renderRow(item, start + i)}
        </div>
      ))}
      <div aria-hidden="true" style={{ height: offsets[items.length]! - offsets[end]! }} />
    </div>
  );
}
