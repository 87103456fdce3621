import { z } from '@hono/zod-openapi';

// Request bodies are strict objects: an unknown field is a 400 naming it, never silently ignored.

const permissionRules = z.strictObject({
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
});

const modelSelection = z.union([
  z.string().min(1),
  z.strictObject({ id: z.string().min(1), params: z.array(z.strictObject({ id: z.string(), value: z.string() })).optional() }),
]);

export const imageSchema = z.strictObject({
  data: z.string().min(1).openapi({ description: 'Base64 bytes of the image.' }),
  mimeType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
});

export const sendBodySchema = z
  .strictObject({
    text: z.string().optional(),
    images: z.array(imageSchema).max(10).optional(),
    mode: z.string().min(1).optional(),
    model: modelSelection.optional(),
    approvePlan: z.boolean().optional().openapi({ description: 'Run the plan proposed in plan mode (switches to the agent mode).' }),
  })
  .refine((body) => Boolean(body.text?.trim()) || Boolean(body.images?.length), { message: 'Send text or at least one image.', path: ['text'] })
  .openapi('SendBody');

export const agentSettingsSchema = z.strictObject({
  maxSteps: z.number().int().min(1).max(1000).optional(),
  permissions: permissionRules.optional(),
  defaultPermission: z.enum(['allow', 'ask', 'deny']).optional(),
  tools: z.array(z.string()).optional(),
  disallowedTools: z.array(z.string()).optional(),
  systemPrompt: z.strictObject({ append: z.string().max(100_000).optional() }).optional(),
});

export const createAgentBodySchema = agentSettingsSchema
  .extend({
    model: modelSelection.optional(),
    mode: z.string().min(1).optional(),
    name: z.string().max(200).optional(),
    agentId: z.string().regex(/^[\w.-]{1,100}$/).optional(),
    local: z.strictObject({
      cwd: z.string().min(1).openapi({ description: 'Absolute path of the workspace, inside one of the server roots.' }),
      sandboxOptions: z.strictObject({ enabled: z.boolean() }).optional(),
      settingSources: z.array(z.enum(['project', 'user', 'local', 'plugins'])).optional(),
    }),
    prompt: sendBodySchema.optional(),
  })
  .openapi('CreateAgentBody');

export const approvalBodySchema = z
  .strictObject({
    decision: z.enum(['allow', 'deny', 'allow-always']),
    reason: z.string().max(2000).optional(),
  })
  .openapi('ApprovalAnswer');

export const agentIdParam = z.object({ agentId: z.string().min(1).openapi({ param: { name: 'agentId', in: 'path' } }) });
export const runIdParam = z.object({ runId: z.string().min(1).openapi({ param: { name: 'runId', in: 'path' } }) });

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().optional(),
});

export const agentListQuery = pageQuery.extend({ includeArchived: z.enum(['true', 'false']).optional() });

export const eventsQuery = z.object({
  after: z.coerce.number().int().min(0).optional().openapi({ description: 'Replay only events after this offset (as Last-Event-ID).' }),
  only: z.enum(['messages']).optional(),
  token: z.string().optional().openapi({ description: 'The bearer token, for clients that cannot set headers.' }),
});

// Responses are described, not re-validated: they are the SDK's own objects.
const loose = (name: string, shape: Record<string, z.ZodTypeAny>) => z.looseObject(shape).openapi(name);

export const errorSchema = loose('Error', { error: z.looseObject({ code: z.string(), message: z.string() }) });
export const agentInfoSchema = loose('AgentInfo', { agentId: z.string(), name: z.string(), cwd: z.string(), mode: z.string(), archived: z.boolean() });
export const runSchema = loose('Run', {
  id: z.string(),
  agentId: z.string(),
  status: z.enum(['running', 'finished', 'error', 'cancelled']),
  mode: z.string(),
  pendingApprovals: z.number(),
});
export const approvalSchema = loose('Approval', { runId: z.string(), callId: z.string(), kind: z.enum(['tool', 'mode-switch', 'plan']), status: z.string(), reason: z.string() });
export const listOf = (name: string, item: z.ZodTypeAny) => z.object({ items: z.array(item), nextCursor: z.string().optional() }).openapi(name);
export const anyObject = (name: string) => z.looseObject({}).openapi(name);
