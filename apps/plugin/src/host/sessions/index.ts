// sessions/: how the plugin reads a host session — which events it has (whatever the host
// generation calls them), which messages the model still sees, which are the person's and which
// are ours (source.plugin = 'engram'), the shape of the messages we add, and session_read over the
// host's past-session logs.
export { isSubagent, lastPersonMessage, PLUGIN_ID, sessionEvents, textOfContent, type InjectedForm } from './view.ts';
export { pluginMessage } from './messages.ts';
export { SESSION_READ_TOOL, sessionToolSpecs } from './tools.ts';
