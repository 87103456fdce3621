import { afterEach, beforeEach, describe } from 'vitest';
import type { AgentStore } from '../spec/store/v1/store.js';
import { agentsSuite } from './store-conformance/agents-suite.js';
import { approvalsPersistenceSuite, approvalsSuite } from './store-conformance/approvals-suite.js';
import { checkpointCommitPersistenceSuite, checkpointCommitSuite } from './store-conformance/checkpoint-commit-suite.js';
import { checkpointsSuite } from './store-conformance/checkpoints-suite.js';
import { leaseSuite } from './store-conformance/lease-suite.js';
import { persistenceSuite } from './store-conformance/persistence-suite.js';
import type { StoreUnderTest } from './store-conformance/records.js';
import { runEventsSuite } from './store-conformance/run-events-suite.js';
import { runsSuite } from './store-conformance/runs-suite.js';
import { stepCommitPersistenceSuite, stepCommitSuite } from './store-conformance/step-commit-suite.js';

export interface StoreConformanceOptions {
  /**
   * Close `store` and open a new one on the same data (same file or folder). When given, the
   * suite also checks that everything written survives a reopen.
   */
  reopen?: (store: AgentStore) => Promise<AgentStore>;
  /**
   * The store must have the (spec-optional) `approvals` substore: its tests fail instead of
   * being skipped when it is missing. Set it for a backend that implements approvals.
   */
  requireApprovals?: boolean;
  /**
   * The store must have the (spec-optional) `commitCheckpoint`: its tests fail instead of being
   * skipped when it is missing. Set it for a backend that implements it.
   */
  requireCheckpointCommit?: boolean;
  /** The same for the (spec-optional) `commitStep`: a checkpoint save and a run's events in one transaction. */
  requireStepCommit?: boolean;
}

/**
 * The one behaviour suite every AgentStore backend runs (memory, JSONL, SQLite, your own):
 * call it at the top level of a vitest test file. `createStore` must return a fresh, empty store
 * for every test; the suite closes it after each test.
 */
export function runStoreConformance(
  name: string,
  createStore: () => Promise<AgentStore> | AgentStore,
  options: StoreConformanceOptions = {},
): void {
  let store: AgentStore | undefined;
  const subject: StoreUnderTest = {
    current() {
      if (store === undefined) throw new Error('The store under test is only available inside a test.');
      return store;
    },
    reopen: options.reopen,
    replace(next) {
      store = next;
    },
  };

  describe(`store conformance: ${name}`, () => {
    beforeEach(async () => {
      store = await createStore();
    });
    afterEach(async () => {
      await store?.close?.();
      store = undefined;
    });

    agentsSuite(subject);
    leaseSuite(subject);
    checkpointsSuite(subject);
    checkpointCommitSuite(subject, options.requireCheckpointCommit === true);
    stepCommitSuite(subject, options.requireStepCommit === true);
    runsSuite(subject);
    runEventsSuite(subject);
    approvalsSuite(subject, options.requireApprovals === true);
    if (options.reopen !== undefined) {
      persistenceSuite(subject, options.reopen);
      approvalsPersistenceSuite(subject, options.reopen, options.requireApprovals === true);
      checkpointCommitPersistenceSuite(subject, options.reopen, options.requireCheckpointCommit === true);
      stepCommitPersistenceSuite(subject, options.reopen, options.requireStepCommit === true);
    }
  });
}
