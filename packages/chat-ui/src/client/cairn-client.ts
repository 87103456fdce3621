import type {
  AgentInfo,
  AgentUsage,
  ApprovalDecisionValue,
  ApprovalRecord,
  Artifact,
  ConversationTurn,
  CreateAgentBody,
  ModelListItem,
  Page,
  Run,
  RunEnd,
  SendBody,
  ServerInfo,
} from '../wire-types.js';
import { type FetchLike, type HttpOptions, segment, send, sendJson, withQuery } from './http.js';
import { type StreamRunOptions, streamRunEvents } from './run-events.js';

export interface CairnClientOptions {
  /** The server's origin, e.g. `http://127.0.0.1:4780` (a trailing slash is ignored). */
  baseUrl: string;
  /** The bearer token `cairn serve` printed. */
  token: string;
  /** A fetch of your own (tests, proxies); default the global one. */
  fetch?: FetchLike;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * Typed access to every route of the Cairn server (docs/server-api.md). Each method is one request;
 * an error answer throws a CairnApiError carrying the server's status, code and message.
 */
export class CairnClient {
  private readonly http: HttpOptions;

  constructor(options: CairnClientOptions) {
    const fetchImpl = options.fetch ?? globalThis.fetch;
    // Called through a wrapper: a browser's fetch throws "Illegal invocation" when detached from window.
    this.http = { baseUrl: options.baseUrl.replace(/\/+$/, ''), token: options.token, fetch: (input, init) => fetchImpl(input, init) };
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  // --- the server ---

  server(): Promise<ServerInfo> {
    return sendJson(this.http, 'GET', '/v1/server');
  }

  async listModels(): Promise<ModelListItem[]> {
    return (await sendJson<{ items: ModelListItem[] }>(this.http, 'GET', '/v1/models')).items;
  }

  // --- agents ---

  createAgent(body: CreateAgentBody): Promise<{ agent: AgentInfo; run?: Run }> {
    return sendJson(this.http, 'POST', '/v1/agents', body);
  }

  listAgents(query: PageQuery & { includeArchived?: boolean } = {}): Promise<Page<AgentInfo>> {
    return sendJson(this.http, 'GET', withQuery('/v1/agents', { ...query }));
  }

  getAgent(agentId: string): Promise<AgentInfo> {
    return sendJson(this.http, 'GET', `/v1/agents/${segment(agentId)}`);
  }

  async deleteAgent(agentId: string): Promise<void> {
    await send(this.http, 'DELETE', `/v1/agents/${segment(agentId)}`);
  }

  archiveAgent(agentId: string): Promise<AgentInfo> {
    return sendJson(this.http, 'POST', `/v1/agents/${segment(agentId)}/archive`);
  }

  unarchiveAgent(agentId: string): Promise<AgentInfo> {
    return sendJson(this.http, 'POST', `/v1/agents/${segment(agentId)}/unarchive`);
  }

  agentUsage(agentId: string): Promise<AgentUsage> {
    return sendJson(this.http, 'GET', `/v1/agents/${segment(agentId)}/usage`);
  }

  async listArtifacts(agentId: string): Promise<Artifact[]> {
    return (await sendJson<{ items: Artifact[] }>(this.http, 'GET', `/v1/agents/${segment(agentId)}/artifacts`)).items;
  }

  /** One artifact's bytes. The path is one route segment, its slashes URL-encoded. */
  async downloadArtifact(agentId: string, path: string): Promise<ArrayBuffer> {
    return (await send(this.http, 'GET', `/v1/agents/${segment(agentId)}/artifacts/${segment(path)}`)).arrayBuffer();
  }

  // --- runs ---

  /** Start a run (it queues behind a running one of the same agent in this server). */
  sendRun(agentId: string, body: SendBody): Promise<Run> {
    return sendJson(this.http, 'POST', `/v1/agents/${segment(agentId)}/runs`, body);
  }

  /** Newest first. */
  listRuns(agentId: string, query: PageQuery = {}): Promise<Page<Run>> {
    return sendJson(this.http, 'GET', withQuery(`/v1/agents/${segment(agentId)}/runs`, { ...query }));
  }

  getRun(runId: string): Promise<Run> {
    return sendJson(this.http, 'GET', `/v1/runs/${segment(runId)}`);
  }

  /** Cancel a run; answers with the run once it ended. */
  cancelRun(runId: string): Promise<Run> {
    return sendJson(this.http, 'POST', `/v1/runs/${segment(runId)}/cancel`);
  }

  async conversation(runId: string): Promise<ConversationTurn[]> {
    return (await sendJson<{ turns: ConversationTurn[] }>(this.http, 'GET', `/v1/runs/${segment(runId)}/conversation`)).turns;
  }

  /** Follow a run's events (replayed, then live) until it ends; see streamRunEvents. */
  streamRun(runId: string, options: StreamRunOptions): Promise<RunEnd | undefined> {
    return streamRunEvents(this.http, runId, options);
  }

  // --- approvals ---

  /** Pending first, then decided. */
  async listApprovals(runId: string): Promise<ApprovalRecord[]> {
    return (await sendJson<{ items: ApprovalRecord[] }>(this.http, 'GET', `/v1/runs/${segment(runId)}/approvals`)).items;
  }

  /** Answer a pending request. A second answer is `409 conflict` with the winning `approval` in `details`. */
  answerApproval(runId: string, callId: string, answer: { decision: ApprovalDecisionValue; reason?: string }): Promise<ApprovalRecord> {
    return sendJson(this.http, 'POST', `/v1/runs/${segment(runId)}/approvals/${segment(callId)}`, answer);
  }
}
