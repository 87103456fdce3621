import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../../vitest.shared.ts';

// After the last test file, the suite fails if an MCP server process of these tests is still running.
export default mergeConfig(sharedConfig, defineConfig({ test: { globalSetup: ['./test/suite-orphan-check.ts'] } }));
