import type { AddressInfo } from 'node:net';
import { cairnHome, createCairn } from '@cairn/core/node';
import { serve } from '@hono/node-server';
import { defaultLocalStore, registry as sdkRegistry } from '@cairn/sdk';
import { AgentPool } from './agent-pool.js';
import { AgentSettingsStore } from './agent-settings.js';
import { createApp } from './app.js';
import { chatPageDir } from './chat-page.js';
import { AllowedRoots } from './http/roots.js';
import { ServerContext } from './server-context.js';
import { type CairnServerOptions, resolveServerOptions } from './server-options.js';
import { workspacePermissions } from './workspace-permissions/index.js';

export interface CairnServer {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  token: string;
  /** Whether the token was generated (then print it: nobody else knows it). */
  tokenGenerated: boolean;
  roots: string[];
  /** The ids of agents whose left runs were resumed at start (runs waiting for approval go on waiting). */
  resumedAgents: string[];
  /** Whether `/` serves the chat page (the `@cairn/chat-ui` page is built). */
  chatPage: boolean;
  /** Stop accepting connections, close open streams and the agents' handles (runs in flight are cancelled by closing). */
  close(): Promise<void>;
}

/** Start the agent server: resume what a previous server left, then listen. */
export async function startCairnServer(options: CairnServerOptions = {}): Promise<CairnServer> {
  const resolved = resolveServerOptions(options);
  const roots = await AllowedRoots.of(resolved.roots);
  const store = options.store ?? defaultLocalStore();
  const { Agent, Cairn } = createCairn({ registry: options.registry ?? sdkRegistry, defaultStore: () => store });
  const home = options.home ?? cairnHome(resolved.env);
  const permissions = workspacePermissions(home);
  const pool = new AgentPool({ Agent, settings: AgentSettingsStore.under(home), permissions, roots, env: resolved.env, defaults: options.agentDefaults ?? {}, sandbox: options.sandbox ?? false });
  const ctx = new ServerContext(Agent, Cairn, store, pool, roots, permissions, resolved);
  const resumedAgents = await pool.resumeLeftRuns();
  const pageDir = chatPageDir();
  const app = createApp(ctx, pageDir);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: resolved.host, port: resolved.port }, () => resolve(started));
    started.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  return {
    url: `http://${host}:${port}`,
    token: resolved.token,
    tokenGenerated: resolved.tokenGenerated,
    roots: roots.paths,
    resumedAgents,
    chatPage: Boolean(pageDir && resolved.chatPage),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await pool.closeAll();
    },
  };
}
