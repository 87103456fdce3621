import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import { ApiError } from '../http/api-error.js';
import { eventsQuery, runIdParam } from '../http/schemas.js';
import type { ServerContext } from '../server-context.js';
import { runView } from '../views.js';
import { errorResponses, eventStream } from './route-helpers.js';

export function eventRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  app.openapi(
    createRoute({
      method: 'get', path: '/v1/runs/{runId}/events', tags: ['events'],
      summary: "The run's events as Server-Sent Events: replayed from the store, followed live, resumable with Last-Event-ID",
      request: { params: runIdParam, query: eventsQuery, headers: z.object({ 'last-event-id': z.string().regex(/^\d+$/).optional() }) },
      responses: { 200: eventStream('`event: message` (an SDKMessage) and `event: update` (an InteractionUpdate), `id:` the store offset; `event: end` last'), ...errorResponses },
    }),
    async (c) => {
      const { runId } = c.req.valid('param');
      const query = c.req.valid('query');
      const header = c.req.valid('header')['last-event-id'];
      const after = header !== undefined ? Number(header) : (query.after ?? 0);
      if (!Number.isSafeInteger(after)) throw new ApiError(400, 'invalid_request', 'Last-Event-ID must be the offset of an event this stream sent.');
      const { run } = await ctx.run(runId);
      return streamSSE(c, async (stream) => {
        // Comments keep idle streams open through proxies; they carry no id, so resuming ignores them.
        const heartbeat = setInterval(() => void stream.write(': ping\n\n').catch(() => undefined), ctx.options.heartbeatMs);
        stream.onAbort(() => clearInterval(heartbeat));
        try {
          for await (const stored of run.storedEvents({ afterOffset: after })) {
            // A client that went away stops its stream only: the run goes on.
            if (stream.aborted) return;
            if (query.only === 'messages' && stored.event.kind !== 'message') continue;
            const data = stored.event.kind === 'message' ? stored.event.message : stored.event.update;
            await stream.writeSSE({ id: String(stored.offset), event: stored.event.kind, data: JSON.stringify(data) });
          }
          const ended = (await ctx.run(runId)).run;
          await stream.writeSSE({ event: 'end', data: JSON.stringify({ status: ended.status, run: await runView(ended) }) });
        } finally {
          clearInterval(heartbeat);
        }
      });
    },
  );
}
