import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AgentSettings } from '../agent-settings.js';
import { agentIdParam, agentInfoSchema, agentListQuery, anyObject, createAgentBodySchema, listOf, runSchema } from '../http/schemas.js';
import { errorResponses, jsonBody, jsonResponse } from './route-helpers.js';
import type { ServerContext } from '../server-context.js';
import { runView } from '../views.js';

const tags = ['agents'];

export function agentRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  app.openapi(
    createRoute({
      method: 'post', path: '/v1/agents', tags, summary: 'Create an agent (and optionally send its first message)',
      request: jsonBody(createAgentBodySchema),
      responses: { 201: jsonResponse(z.object({ agent: agentInfoSchema, run: runSchema.optional() }), 'The agent, and its first run when a prompt was given'), ...errorResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const cwd = await ctx.roots.workspace(body.local.cwd);
      const { model, mode, name, agentId, local, prompt, ...rest } = body;
      const settings: AgentSettings = { ...rest, ...(local.sandboxOptions ? { sandbox: local.sandboxOptions.enabled } : {}), ...(local.settingSources ? { settingSources: local.settingSources } : {}) };
      const agent = await ctx.pool.create({ cwd, ...(model ? { model } : {}), ...(mode ? { mode } : {}), ...(name ? { name } : {}), ...(agentId ? { agentId } : {}) }, settings);
      const run = prompt ? await runView(await ctx.send(agent, prompt)) : undefined;
      return c.json({ agent: await ctx.Agent.get(agent.agentId), ...(run ? { run } : {}) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/agents', tags, summary: 'List agents inside the server roots, newest first',
      request: { query: agentListQuery },
      responses: { 200: jsonResponse(listOf('AgentList', agentInfoSchema), 'A page of agents'), ...errorResponses },
    }),
    async (c) => {
      const query = c.req.valid('query');
      const page = await ctx.Agent.list({ limit: query.limit ?? 50, ...(query.cursor ? { cursor: query.cursor } : {}), includeArchived: query.includeArchived === 'true' });
      const items = page.items.filter((info) => ctx.roots.contains(info.cwd));
      return c.json({ items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: '/v1/agents/{agentId}', tags, summary: 'One agent', request: { params: agentIdParam }, responses: { 200: jsonResponse(agentInfoSchema, 'The agent'), ...errorResponses } }),
    async (c) => c.json(await ctx.agentInfo(c.req.valid('param').agentId), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: '/v1/agents/{agentId}', tags, summary: 'Delete an agent', request: { params: agentIdParam }, responses: { 204: { description: 'Deleted' }, ...errorResponses } }),
    async (c) => {
      const { agentId } = c.req.valid('param');
      await ctx.agentRecord(agentId);
      await ctx.pool.forget(agentId);
      await ctx.Agent.delete(agentId);
      return c.body(null, 204);
    },
  );

  for (const action of ['archive', 'unarchive'] as const) {
    app.openapi(
      createRoute({ method: 'post', path: `/v1/agents/{agentId}/${action}`, tags, summary: `${action === 'archive' ? 'Hide the agent from the list' : 'Show an archived agent again'}`, request: { params: agentIdParam }, responses: { 200: jsonResponse(agentInfoSchema, 'The agent'), ...errorResponses } }),
      async (c) => {
        const { agentId } = c.req.valid('param');
        await ctx.agentRecord(agentId);
        await ctx.Agent[action](agentId);
        return c.json(await ctx.Agent.get(agentId), 200);
      },
    );
  }

  app.openapi(
    createRoute({ method: 'get', path: '/v1/agents/{agentId}/usage', tags, summary: 'Tokens and cost per run and in total', request: { params: agentIdParam }, responses: { 200: jsonResponse(anyObject('AgentUsage'), 'The usage'), ...errorResponses } }),
    async (c) => {
      const { agentId } = c.req.valid('param');
      await ctx.agentRecord(agentId);
      return c.json(await ctx.Agent.getUsage(agentId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/agents/{agentId}/artifacts', tags, summary: 'Files the agent wrote in its workspace', request: { params: agentIdParam },
      responses: { 200: jsonResponse(listOf('ArtifactList', anyObject('Artifact')), 'The artifacts'), ...errorResponses },
    }),
    async (c) => c.json({ items: await (await ctx.agentHandle(c.req.valid('param').agentId)).listArtifacts() }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/agents/{agentId}/artifacts/{path}', tags, summary: "One artifact's bytes",
      request: { params: agentIdParam.extend({ path: z.string().min(1).openapi({ param: { name: 'path', in: 'path' }, description: 'Relative to the workspace; URL-encode the slashes.' }) }) },
      responses: { 200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } }, ...errorResponses },
    }),
    async (c) => {
      const { agentId, path } = c.req.valid('param');
      const bytes = await (await ctx.agentHandle(agentId)).downloadArtifact(path);
      return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/octet-stream' });
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/agents/{agentId}/runs', tags: ['runs'], summary: "The agent's runs, newest first", request: { params: agentIdParam, query: agentListQuery.omit({ includeArchived: true }) },
      responses: { 200: jsonResponse(listOf('RunList', runSchema), 'A page of runs'), ...errorResponses },
    }),
    async (c) => {
      const { agentId } = c.req.valid('param');
      const query = c.req.valid('query');
      await ctx.agentRecord(agentId);
      const page = await ctx.Agent.listRuns(agentId, { limit: query.limit ?? 50, ...(query.cursor ? { cursor: query.cursor } : {}) });
      return c.json({ items: await Promise.all(page.items.map(runView)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, 200);
    },
  );
}
