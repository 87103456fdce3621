import { z } from '@hono/zod-openapi';
import { errorSchema } from '../http/schemas.js';

export const jsonResponse = (schema: z.ZodTypeAny, description: string) => ({ description, content: { 'application/json': { schema } } });

export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({ body: { required: true, content: { 'application/json': { schema } } } });

const error = (description: string) => jsonResponse(errorSchema, description);

/** The errors every route may answer with (docs/server-api.md, "Errors"). */
export const errorResponses = {
  400: error('The request is invalid: the message and `issues` say what to change'),
  401: error('No or a wrong bearer token'),
  403: error('A workspace outside the server roots'),
  404: error('No such agent, run or approval inside the roots'),
  409: error('The agent is busy in another process, or the approval was already decided'),
  413: error('The body is larger than the server accepts'),
} as const;

export const eventStream = (description: string) => ({ description, content: { 'text/event-stream': { schema: z.string() } } });
