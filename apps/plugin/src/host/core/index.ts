// core/: what every capability shares and none decides alone — the slice of the host API the
// plugin relies on (host-types), how the host config splits into engine options and the plugin's
// own (config), the texts put in front of the model (texts), and logging: one line per recall,
// teed into the rotating <dataDir>/logs/engram-plugin.log (log, log-file).
export { splitPluginConfig, type PluginOptions, type SplitConfig } from './config.ts';
export { errorText, formatRecallLog, loggerOf, silentHostLogger } from './log.ts';
export { LOG_DIR_NAME, LOG_FILE_NAME, RotatingLog, teeLogger } from './log-file.ts';
export { escapePromptVariables, renderNotice, renderResident } from './texts.ts';
export type * from './host-types.ts';
