import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { StoredRunEvent } from '@cairn/core';
import type { Run } from '@cairn/core/node';
import { agentIdParam, runIdParam } from '../http/schemas.js';
import type { ServerContext } from '../server-context.js';
import { lastUserText, uiChunksOfRun, uiChunksToSse, uiMessageStreamHeaders } from '../ui-stream/index.js';
import { errorResponses, eventStream } from './route-helpers.js';

const tags = ['ai-sdk'];
const description = 'The Vercel AI SDK UI message stream (v1): `data:` JSON chunks, `data: [DONE]` last';

/** useChat's request body; its messages are checked by lastUserText, which says what is wrong. */
const chatBody = z.looseObject({ id: z.string().optional(), messages: z.array(z.looseObject({})), trigger: z.string().optional() }).openapi('UseChatBody');

export function chatRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  const respond = (run: Run, afterOffset = 0) => {
    const events = run.storedEvents({ afterOffset }) as AsyncIterable<StoredRunEvent>;
    const chunks = uiChunksOfRun(events, { messageId: run.id, runId: run.id });
    return new Response(uiChunksToSse(chunks, { keepAliveMs: ctx.options.heartbeatMs }), { headers: { ...uiMessageStreamHeaders, 'x-cairn-run-id': run.id } });
  };

  app.openapi(
    createRoute({
      method: 'post', path: '/v1/agents/{agentId}/chat', tags, summary: "Send useChat's last user message as a run and stream it as UI message chunks",
      request: { params: agentIdParam, body: { required: true, content: { 'application/json': { schema: chatBody } } } },
      responses: { 200: eventStream(description), ...errorResponses },
    }),
    async (c) => {
      const agent = await ctx.agentHandle(c.req.valid('param').agentId);
      const message = lastUserText(c.req.valid('json'));
      const run = await ctx.send(agent, { text: message.text, ...(message.images.length ? { images: message.images as never } : {}) });
      return respond(run);
    },
  );

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/runs/{runId}/ui-stream', tags, summary: 'An existing run as UI message chunks, from its start (for a client that reconnects)',
      request: { params: runIdParam, query: z.object({ token: z.string().optional() }) },
      responses: { 200: eventStream(description), ...errorResponses },
    }),
    async (c) => respond((await ctx.run(c.req.valid('param').runId)).run),
  );
}
