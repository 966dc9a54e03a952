// routes/: what the plugin answers on the host's HTTP server and to whom — every route behind the
// engine's request guard (Host, same site, install token for writes): status, client-config, logs,
// console-start and the console proxy — and how the plugin finds, probes and starts the console.
export { createLightViewRoutes, VIEW_PATH } from './light-view.ts';
export { CLIENT_CONFIG_PATH, CONSOLE_PROXY_PATH, CONSOLE_START_PATH, createRoutes, LOGS_PATH, STATUS_PATH, TOKEN_HEADER } from './routes.ts';
export { CONSOLE_TOKEN_FILE, ConsoleLink, consoleEnv, ensureConsoleToken } from './console-link.ts';
export { describeStatus } from './status.ts';
