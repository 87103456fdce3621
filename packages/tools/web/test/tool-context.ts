// The shared test context of @cairn/core/testing.
export { createToolContext, type TestToolContext } from '@cairn/core/testing';
