// Bundled in place of `Headers` in @huggingface/transformers' FileResponse only (scripts/build-cli.mjs):
// a local model file's response carries two headers (content-length, content-type), and the global
// Headers class loads node's fetch implementation (undici), ~19 ms of CPU before the first model
// file is read. What FileResponse and its readers use of Headers: names without case, get() null
// when absent, set, append, has, delete, and iteration (so a real Headers can be made from it).
'use strict';

class FileHeaders {
  #map = new Map();

  constructor(init) {
    if (init == null) return;
    const pairs = typeof init[Symbol.iterator] === 'function' ? init : Object.entries(init);
    for (const [name, value] of pairs) this.append(name, value);
  }

  append(name, value) {
    const key = String(name).toLowerCase();
    const old = this.#map.get(key);
    this.#map.set(key, old === undefined ? String(value) : `${old}, ${value}`);
  }

  set(name, value) {
    this.#map.set(String(name).toLowerCase(), String(value));
  }

  get(name) {
    return this.#map.get(String(name).toLowerCase()) ?? null;
  }

  has(name) {
    return this.#map.has(String(name).toLowerCase());
  }

  delete(name) {
    this.#map.delete(String(name).toLowerCase());
  }

  forEach(fn, thisArg) {
    for (const [name, value] of this.entries()) fn.call(thisArg, value, name, this);
  }

  *entries() {
    yield* [...this.#map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  *keys() {
    for (const [name] of this.entries()) yield name;
  }

  *values() {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator]() {
    return this.entries();
  }
}

module.exports = FileHeaders;
