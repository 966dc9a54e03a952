// Just enough React to run a function component outside a browser: createElement builds plain
// objects, useState keeps values across renders, useEffect runs after a render when its deps change.
// The point is that the component really executes (a stub that never calls it proves nothing).

export interface Element {
  type: unknown;
  props: Record<string, unknown> & { children: unknown[] };
}

export function createMiniReact() {
  let hooks: unknown[] = [];
  let cursor = 0;
  let pending: (() => void)[] = [];
  let dirty = false;

  const React = {
    createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): Element {
      return { type, props: { ...(props ?? {}), children: children.flat().filter((c) => c !== null && c !== undefined && c !== false) } };
    },
    useState<T>(initial: T): [T, (next: T | ((prev: T) => T)) => void] {
      const i = cursor++;
      if (!(i in hooks)) hooks[i] = initial;
      const set = (next: T | ((prev: T) => T)) => {
        hooks[i] = typeof next === 'function' ? (next as (prev: T) => T)(hooks[i] as T) : next;
        dirty = true;
      };
      return [hooks[i] as T, set];
    },
    useEffect(effect: () => void | (() => void), deps?: unknown[]): void {
      const i = cursor++;
      const previous = hooks[i] as unknown[] | undefined;
      if (previous === undefined || deps === undefined || deps.some((d, k) => d !== previous[k])) {
        hooks[i] = deps ?? [];
        pending.push(() => void effect());
      }
    },
  };

  return {
    React,
    /** Renders the component once and runs the effects that render scheduled. */
    render(component: (props: Record<string, unknown>) => unknown): Element {
      cursor = 0;
      pending = [];
      dirty = false;
      const tree = component({}) as Element;
      for (const run of pending) run();
      return tree;
    },
    get dirty() {
      return dirty;
    },
    reset() {
      hooks = [];
    },
  };
}

/**
 * Renders `component` with `props`, then lets the effects and fetches it started settle: up to ten
 * turns of the event loop, rendering again whenever state changed.
 */
export async function settle(mini: ReturnType<typeof createMiniReact>, component: unknown, props: Record<string, unknown> = {}): Promise<Element> {
  const render = () => mini.render(() => (component as (p: unknown) => unknown)(props));
  let tree = render();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setImmediate(r));
    if (mini.dirty) tree = render();
  }
  return tree;
}

/** Depth-first search of a rendered tree. */
export function findAll(node: unknown, match: (e: Element) => boolean, out: Element[] = []): Element[] {
  if (node === null || typeof node !== 'object') return out;
  const element = node as Element;
  if (match(element)) out.push(element);
  for (const child of element.props?.children ?? []) findAll(child, match, out);
  return out;
}

export const byData = (tag: string) => (e: Element) => e.props?.['data-engram'] === tag;

export function textOf(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (node === null || typeof node !== 'object') return '';
  return ((node as Element).props?.children ?? []).map(textOf).join('');
}
