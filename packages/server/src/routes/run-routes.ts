import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { agentIdParam, anyObject, runIdParam, runSchema, sendBodySchema } from '../http/schemas.js';
import type { ServerContext } from '../server-context.js';
import { runView } from '../views.js';
import { apiVersion } from '../version.js';
import { errorResponses, jsonBody, jsonResponse } from './route-helpers.js';

const tags = ['runs'];

export function runRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  app.openapi(
    createRoute({
      method: 'post', path: '/v1/agents/{agentId}/runs', tags, summary: 'Send a message: starts a run (queued behind a running one of this agent)',
      request: { params: agentIdParam, ...jsonBody(sendBodySchema) },
      responses: { 201: jsonResponse(runSchema, 'The run, running'), ...errorResponses },
    }),
    async (c) => {
      const agent = await ctx.agentHandle(c.req.valid('param').agentId);
      return c.json(await runView(await ctx.send(agent, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/v1/runs/{runId}', tags, summary: 'One run', request: { params: runIdParam }, responses: { 200: jsonResponse(runSchema, 'The run'), ...errorResponses } }),
    async (c) => c.json(await runView((await ctx.run(c.req.valid('param').runId)).run), 200),
  );

  app.openapi(
    createRoute({ method: 'post', path: '/v1/runs/{runId}/cancel', tags, summary: 'Cancel the run; answers once it ended', request: { params: runIdParam }, responses: { 200: jsonResponse(runSchema, 'The run after it ended'), ...errorResponses } }),
    async (c) => {
      const { run } = await ctx.run(c.req.valid('param').runId);
      await run.cancel();
      return c.json(await runView((await ctx.run(run.id)).run), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/runs/{runId}/conversation', tags, summary: 'The run as conversation turns (as run.conversation())', request: { params: runIdParam },
      responses: { 200: jsonResponse(z.object({ turns: z.array(anyObject('ConversationTurn')) }), 'The turns'), ...errorResponses },
    }),
    async (c) => c.json({ turns: await (await ctx.run(c.req.valid('param').runId)).run.conversation() }, 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: '/v1/models', tags: ['models'], summary: 'The router and the catalog models of the configured providers', responses: { 200: jsonResponse(z.object({ items: z.array(anyObject('Model')) }), 'The models'), ...errorResponses } }),
    async (c) => c.json({ items: await ctx.Cairn.models.list({ env: ctx.options.env }) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/server', tags: ['server'], summary: 'What this server is: its version and the folders agents may use (the first is the default workspace)',
      responses: { 200: jsonResponse(z.object({ version: z.string(), roots: z.array(z.string()), defaultCwd: z.string() }), 'The server'), ...errorResponses },
    }),
    async (c) => c.json({ version: apiVersion, roots: ctx.roots.paths, defaultCwd: ctx.roots.paths[0] ?? '' }, 200),
  );
}
