import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { chatPageRoutes } from './chat-page.js';
import { ApiError, errorBody } from './http/api-error.js';
import { bearerAuth } from './http/auth.js';
import { agentRoutes } from './routes/agent-routes.js';
import { approvalRoutes } from './routes/approval-routes.js';
import { chatRoutes } from './routes/chat-routes.js';
import { eventRoutes } from './routes/event-routes.js';
import { runRoutes } from './routes/run-routes.js';
import type { ServerContext } from './server-context.js';
import { apiVersion } from './version.js';

/** The HTTP application: middleware, every route, the OpenAPI document, the chat page. */
export function createApp(ctx: ServerContext, chatPageDir: string | undefined): OpenAPIHono {
  const app = new OpenAPIHono({
    // A body, query or parameter that fails its schema: 400 naming each field and what is wrong.
    defaultHook: (result, c) => {
      if (result.success) return;
      const issues = result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
      const message = `The request is invalid: ${issues.map((issue) => `${issue.path || '(body)'}: ${issue.message}`).join('; ')}.`;
      return c.json({ error: { code: 'invalid_request', message, issues } }, 400);
    },
  });
  const { options } = ctx;
  if (options.corsOrigins.length) app.use('/v1/*', cors({ origin: options.corsOrigins, allowHeaders: ['authorization', 'content-type', 'last-event-id'], exposeHeaders: ['x-vercel-ai-ui-message-stream'], maxAge: 600 }));
  app.use('/v1/*', bearerAuth(options.token));
  app.use('/v1/*', bodyLimit({ maxSize: options.maxBodyBytes, onError: () => { throw new ApiError(413, 'payload_too_large', `The body is larger than ${options.maxBodyBytes} bytes, the most this server accepts (cairn serve --max-body-bytes).`); } }));
  agentRoutes(app, ctx);
  runRoutes(app, ctx);
  eventRoutes(app, ctx);
  approvalRoutes(app, ctx);
  chatRoutes(app, ctx);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  app.doc31('/v1/openapi.json', { openapi: '3.1.0', info: { title: 'Cairn agent server', version: apiVersion, description: 'Agents, runs, events and approvals of the Cairn SDK over HTTP (docs/server-api.md).' }, security: [{ bearer: [] }] });
  if (chatPageDir && options.chatPage) chatPageRoutes(app, chatPageDir);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `No route ${c.req.method} ${c.req.path}; GET /v1/openapi.json lists them.` } }, 404));
  app.onError((error, c) => {
    const { status, body } = errorBody(error);
    if (status === 500) console.error(`cairn serve: ${c.req.method} ${c.req.path} failed:`, error);
    return c.json(body, status);
  });
  return app;
}
