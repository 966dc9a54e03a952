#!/usr/bin/env node
// The `engram` command. The engine is TypeScript source run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
