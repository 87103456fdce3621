export { type CairnServer, startCairnServer } from './cairn-server.js';
export type { CairnServerOptions } from './server-options.js';
export { apiVersion } from './version.js';
