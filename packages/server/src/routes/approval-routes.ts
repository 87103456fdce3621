import type { ApprovalRecord } from '@cairn/core';
import type { Run } from '@cairn/core/node';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError, notFound } from '../http/api-error.js';
import { approvalBodySchema, approvalSchema, listOf, runIdParam } from '../http/schemas.js';
import type { ServerContext } from '../server-context.js';
import { orderApprovals } from '../views.js';
import { rememberedRuleFor } from '../workspace-permissions/index.js';
import { errorResponses, jsonBody, jsonResponse } from './route-helpers.js';

const tags = ['approvals'];

export function approvalRoutes(app: OpenAPIHono, ctx: ServerContext): void {
  // A store without an approvals part only knows the pending requests of runs in this process.
  const records = (run: Run): Promise<ApprovalRecord[]> => (ctx.store.approvals ? ctx.store.approvals.list({ runId: run.id }) : run.pendingApprovals());

  app.openapi(
    createRoute({
      method: 'get', path: '/v1/runs/{runId}/approvals', tags, summary: 'The requests of the run: pending first, then decided', request: { params: runIdParam },
      responses: { 200: jsonResponse(listOf('ApprovalList', approvalSchema), 'The requests'), ...errorResponses },
    }),
    async (c) => c.json({ items: orderApprovals(await records((await ctx.run(c.req.valid('param').runId)).run)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post', path: '/v1/runs/{runId}/approvals/{callId}', tags, summary: 'Answer a request: allow once, deny, or allow always in this workspace',
      request: { params: runIdParam.extend({ callId: z.string().min(1).openapi({ param: { name: 'callId', in: 'path' } }) }), ...jsonBody(approvalBodySchema) },
      responses: { 200: jsonResponse(approvalSchema, 'The request with the decision'), ...errorResponses },
    }),
    async (c) => {
      const { runId, callId } = c.req.valid('param');
      const { decision, reason } = c.req.valid('json');
      const { run, cwd } = await ctx.run(runId);
      const request = (await records(run)).find((record) => record.callId === callId);
      if (!request) throw notFound(`Approval ${callId} of run ${runId}`);
      if (request.status !== 'pending') throw alreadyDecided(request);
      if (decision === 'allow-always') await remember(ctx, request, cwd);
      const approved = decision !== 'deny';
      const answered = await run.approve(callId, { approved, by: 'api', ...(reason ? { reason } : {}) });
      // Another client may have answered between our read and our answer: the first answer counts,
      // and a different one is a conflict (the same answer twice is not).
      const decided = answered.decision;
      if (decided?.approved !== approved || decided.by !== 'api' || (decided.reason ?? '') !== (reason ?? '')) throw alreadyDecided(answered);
      return c.json(answered, 200);
    },
  );
}

async function remember(ctx: ServerContext, request: ApprovalRecord, cwd: string): Promise<void> {
  const rule = rememberedRuleFor(request, cwd);
  if (!rule) throw new ApiError(400, 'invalid_request', 'This request can only be allowed once: no exact rule can be written for it (its command or path has glob or rule syntax in it). Answer with "allow".');
  await ctx.permissions.remember(cwd, rule);
}

const alreadyDecided = (record: ApprovalRecord) =>
  new ApiError(409, 'conflict', `Approval ${record.callId} was already answered (${record.status}${record.decision?.by ? ` by ${record.decision.by}` : ''}).`, { approval: record });
