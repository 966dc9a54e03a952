// @engram/plugin host entry: the DSH host half. A host module exports exactly name, inject, apply.
import { createHostPlugin } from './host/apply.ts';

const plugin = createHostPlugin();

export const name = plugin.name;
export const inject = plugin.inject;
export const apply = plugin.apply;
