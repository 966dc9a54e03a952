// Test instrument: which settings a running plugin reads from the engine's current config. The
// engine keeps its config in one place (EngineState.config, replaced whole by a save); every
// consumer that reads it at use time sees a saved change. This wraps that slot so each leaf read of
// the config in effect is recorded (a read of an older config — a value captured before a save —
// is not: it is exactly what a setting that needs a restart looks like).
import type { Engine } from '@engram/engine';

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ConfigReads {
  /** Leaf paths read from the config in effect since the last clear(). */
  readonly paths: Set<string>;
  clear(): void;
  /** Stops recording (the slot holds plain values again). */
  stop(): void;
}

export function recordConfigReads(engine: Engine): ConfigReads {
  const state = (engine as unknown as { state: Record<string, unknown> }).state;
  let current = state.config as Record<string, unknown>;
  const paths = new Set<string>();
  const proxies = new WeakMap<object, object>();
  let recording = true;
  const wrap = (target: Record<string, unknown>, prefix: string, root: object): object => {
    const known = proxies.get(target);
    if (known) return known;
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof key !== 'string') return value;
        const path = prefix ? `${prefix}.${key}` : key;
        if (isPlain(value)) return wrap(value, path, root);
        if (recording && root === current && Object.prototype.hasOwnProperty.call(t, key)) paths.add(path);
        return value;
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };
  Object.defineProperty(state, 'config', {
    configurable: true,
    enumerable: true,
    get: () => wrap(current, '', current),
    set: (v: Record<string, unknown>) => {
      current = v;
    },
  });
  return {
    paths,
    clear: () => paths.clear(),
    stop: () => {
      recording = false;
      Object.defineProperty(state, 'config', { configurable: true, enumerable: true, writable: true, value: current });
    },
  };
}
