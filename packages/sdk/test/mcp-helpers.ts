// Agents of the SDK with real MCP servers (started with `node <their bin>` from the devDependencies
// of @cairn/tools-mcp, never downloaded): the servers, the fixture and the orphan check of that package.
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpServerLimits, McpStdioServerConfig } from '@cairn/core';
import { type ScriptedTurn, scriptedModel, scriptedProvider } from '@cairn/core/testing';
import { expect } from 'vitest';
import { everythingServerPath, filesystemServerPath, fixtureServerPath } from '../../tools/mcp/test/helpers/fixture-servers.js';
import { leftoverServerProcesses, taggedEnv, testTag } from '../../tools/mcp/test/helpers/server-processes.js';
import { createCairn, defaultPlugins } from '../src/index.js';

export { resultsSeen } from './security-helpers.js';
export { startEverythingServer } from '../../tools/mcp/test/helpers/fixture-servers.js';

export const modelId = 'scripted/m';

/** The SDK's default plugins (the MCP connector among them) and a scripted model. */
export function mcpCairn(turns: ScriptedTurn[]) {
  const model = scriptedModel(turns);
  const { Agent } = createCairn({ plugins: [...defaultPlugins, { name: 'scripted', providers: [scriptedProvider({ m: model })] }] });
  return { Agent, model };
}

/** A canonical temp folder (the agent's workspace, a server's state). */
export async function tempFolder(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** The servers, tagged so the checks below count only this test process's. */
export const servers = {
  everything: (): McpStdioServerConfig => ({ command: process.execPath, args: [everythingServerPath, 'stdio'], env: taggedEnv }),
  filesystem: (root: string): McpStdioServerConfig => ({ command: process.execPath, args: [filesystemServerPath, root], env: taggedEnv }),
  fixture: (stateDir: string, args: string[] = [], limits: McpServerLimits = {}): McpStdioServerConfig => ({
    ...limits,
    command: process.execPath,
    args: [fixtureServerPath, ...args],
    env: { FIXTURE_STATE_DIR: stateDir, ...taggedEnv },
  }),
};

/** No server process this test process started is still running (after a moment to exit). */
export async function expectNoServerLeft(): Promise<void> {
  expect(await leftoverServerProcesses({ tag: testTag })).toEqual([]);
}

/** The names of the tools a model request offered. */
export const offered = (call: { tools?: Array<{ name: string }> } | undefined): string[] => (call?.tools ?? []).map((tool) => tool.name);

/** An environment with a fake HOME and Cairn home, so this machine's config files never load. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, HOME: home, CAIRN_HOME: join(home, '.cairn'), ...extra };
}
