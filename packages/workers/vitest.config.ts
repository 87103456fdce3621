import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// Longer than the shared 20 s: a poisoned run waits out graphile's retry backoff, and the crash
// tests wait for dead workers' leases to expire.
export default defineConfig({ ...sharedConfig, test: { ...sharedConfig.test, testTimeout: 60_000, hookTimeout: 120_000 } });
