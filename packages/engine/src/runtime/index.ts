// The state the engine's services share (database, settings in effect, live index, channels, writer queue).
export { EngineState, lexicalOptions, type OpenEngineOptions } from './state.ts';
