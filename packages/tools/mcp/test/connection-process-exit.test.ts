import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureConfig, removeFolder, scratchFolder } from './helpers/fixture-servers.js';
import { leftoverServerProcesses, testTag, testTagVariable } from './helpers/server-processes.js';

const packageRoot = resolve(import.meta.dirname, '..');
// Inside the package, so the bundle finds the SDK in its node_modules.
const outDir = join(packageRoot, 'node_modules', '.cache', `cairn-mcp-exit-${process.pid}`);
let stateDir: string;

beforeAll(async () => {
  stateDir = scratchFolder();
  await build({
    config: false, entry: { 'exit-host': join(packageRoot, 'test/fixtures/exit-host.ts'), connection: join(packageRoot, 'src/connection/connection.ts') },
    outDir, format: ['esm'], platform: 'node', target: 'node20', dts: false, silent: true, splitting: false, external: ['@modelcontextprotocol/sdk'],
  });
}, 60_000);
afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
  removeFolder(stateDir);
});

describe('the host process exits', () => {
  it('without closing: the exit hook kills the server and what it started', async () => {
    const tag = `${testTag}-exit`;
    const config = fixtureConfig(stateDir, { env: { [testTagVariable]: tag } });
    const host = spawnSync(process.execPath, [join(outDir, 'exit-host.js'), JSON.stringify(config)], { encoding: 'utf8', timeout: 20_000 });
    expect(host.stdout, host.stderr).toMatch(/^started .*"text":"\d+"/);
    expect(await leftoverServerProcesses({ tag })).toEqual([]);
  });
});

describe('start-up cost', () => {
  it('loads the MCP SDK only when a server starts: the bundle imports without it', () => {
    // Copied where no node_modules can be found: a static import of the SDK or zod would fail here.
    const lonely = scratchFolder();
    copyFileSync(join(outDir, 'connection.js'), join(lonely, 'connection.mjs'));
    const script = `const { createMcpConnection } = await import(${JSON.stringify(join(lonely, 'connection.mjs'))});
      const connection = createMcpConnection({ name: 'x', config: { command: 'x' }, origin: 'user', cwd: '/', env: {} });
      const failure = await connection.start().catch((error) => error.message);
      console.log(connection.state, typeof connection.tools, failure);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: lonely, timeout: 20_000 });
    removeFolder(lonely);
    expect(child.stderr).toBe('');
    expect(child.stdout).toMatch(/^failed function MCP server "x" could not start: The MCP SDK \(@modelcontextprotocol\/sdk\) could not be loaded: /);
  });
});
