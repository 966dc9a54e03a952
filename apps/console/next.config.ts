import type { NextConfig } from 'next';

const config: NextConfig = {
  // A separate output folder lets two builds (e.g. a test's own build) live side by side.
  distDir: process.env.ENGRAM_CONSOLE_DIST || '.next',
  // Proxy mode of the DSH plugin serves the console under /engram/console on the host's origin: a
  // console built with that base path (in its own ENGRAM_CONSOLE_DIST) emits its assets under it.
  ...(process.env.ENGRAM_CONSOLE_BASE_PATH ? { basePath: process.env.ENGRAM_CONSOLE_BASE_PATH.replace(/\/+$/, '') } : {}),
  // The same prefix for the client's own fetches (NEXT_PUBLIC_ is inlined at build time).
  env: { NEXT_PUBLIC_ENGRAM_BASE_PATH: (process.env.ENGRAM_CONSOLE_BASE_PATH ?? '').replace(/\/+$/, '') },
  // Native addons and model runtimes load through Node's own require, never bundled.
  serverExternalPackages: ['@node-rs/jieba', '@huggingface/transformers', 'onnxruntime-node', '@libsql/client', 'libsql'],
  // Workspace packages ship TypeScript source that imports siblings with `.ts` extensions.
  transpilePackages: ['@engram/engine', '@engram/db'],
  experimental: {
    // The proxy (src/proxy.ts) sees page requests only, and no page takes a body: Next copies the
    // body of every request the proxy matches into memory first, so keep that copy tiny (#13 item 6).
    proxyClientMaxBodySize: '16kb',
  },
  poweredByHeader: false,
  reactStrictMode: true,
  devIndicators: false,
  // The build type-checks the console (and the engine it imports) unless explicitly told not to.
  typescript: { ignoreBuildErrors: process.env.ENGRAM_SKIP_TYPECHECK === '1' },
  turbopack: {
    // The engine reads user-chosen paths (config file, model dir) at run time. That only matters for
    // file tracing of a deployment bundle, which the console does not make: it runs in place.
    ignoreIssue: [{ path: '**/packages/engine/src/**', title: /Dynamic filesystem access/ }],
  },
};

export default config;
