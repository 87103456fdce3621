// The store conformance suite: call it at the top level of a vitest test file (vitest is an optional peer).
export { runStoreConformance, type StoreConformanceOptions } from './testing/store-conformance.js';
// Records and events the suite writes, for a backend's own tests.
export { agentRecord, runRecord, textDelta } from './testing/store-conformance/records.js';
