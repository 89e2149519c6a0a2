/** The lab's Palette API double: the store, the server and the shared contract. */
export { ProfileStore } from './store.js';
export { startPaletteServer, type PaletteServer, type PaletteServerOptions } from './server.js';
export type * from './types.js';
