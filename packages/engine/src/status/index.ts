// The status domain: what the engine reports about its data, index and channels.
export { StatusService } from './service.ts';
