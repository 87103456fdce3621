import {
  type FakeModelTurn, type FakeProviderServer, type FakeServerOptions, type FakeWire, headerValue, opaqueToken, pieces, startFakeServer, toolNamePattern,
} from './fake-server-core.js';
import { geminiMediaPartProblems } from './fake-image-checks.js';

const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE',
};

/** Google's error envelope: `{ error: { code, message, status } }`. */
export function geminiErrorBody(status: number, message?: string): object {
  const name = statusNames[status] ?? 'UNKNOWN';
  return { error: { code: status, message: message ?? `Injected ${status} (${name})`, status: name } };
}

/** What the server issued with a thought signature, to check it comes back on the same part. */
interface SignedPart {
  key: string;
  signature: string;
}

/**
 * A fake Gemini API (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`) that answers
 * scripted turns with `thought: true` parts, text, and parallel `functionCall` parts (the first one
 * carrying a `thoughtSignature`, as Gemini does), `usageMetadata` and `finishReason`, and checks
 * every request as the real API does: each model turn with function calls is followed by a user
 * turn with one `functionResponse` of the same name per call, and every part that carried a thought
 * signature comes back with it. `url` is the base URL (`GEMINI_BASE_URL`).
 */
export async function startFakeGeminiServer(options: FakeServerOptions | FakeModelTurn[]): Promise<FakeProviderServer> {
  const signed: SignedPart[] = [];
  const wire: FakeWire = {
    matchPath(path) {
      const match = /^\/v1beta\/models\/([^/:?]+):streamGenerateContent\?(?:.*&)?alt=sse(?:&|$)/.exec(path);
      return match ? { model: decodeURIComponent(match[1]!) } : undefined;
    },
    validate: (body, request) => validateGeminiRequest(body, request.headers, signed),
    render: (turn, body, turnIndex, model) => renderGeminiTurn(turn, body, turnIndex, model, signed),
    errorBody: (status) => geminiErrorBody(status),
    notFoundBody: (path) => geminiErrorBody(404, `Unknown path ${path}`),
  };
  return startFakeServer(wire, Array.isArray(options) ? { turns: options } : options);
}

function partKey(part: Record<string, any>): string | undefined {
  if (part.functionCall) return `call:${part.functionCall.name}:${JSON.stringify(part.functionCall.args ?? {})}`;
  if (typeof part.text === 'string' && !part.thought) return `text:${part.text}`;
  return undefined;
}

function renderGeminiTurn(turn: FakeModelTurn, body: Record<string, any>, turnIndex: number, model: string, signed: SignedPart[]): string {
  const responseId = `fake-response-${turnIndex + 1}`;
  const includeThoughts = body.generationConfig?.thinkingConfig?.includeThoughts === true;
  const chunks: Array<Array<Record<string, any>>> = [];
  if (turn.reasoning && includeThoughts) for (const piece of pieces(turn.reasoning, 16)) chunks.push([{ text: piece, thought: true }]);
  const calls = turn.toolCalls ?? [];
  const textPieces = pieces(turn.text ?? '', 12);
  for (const [position, piece] of textPieces.entries()) {
    const part: Record<string, any> = { text: piece };
    // Gemini signs the first function call of a turn, or the last text part when there is none.
    if (calls.length === 0 && position === textPieces.length - 1) {
      part.thoughtSignature = opaqueToken('gsig_', turnIndex, 'text');
      signed.push({ key: `text:${turn.text}`, signature: part.thoughtSignature });
    }
    chunks.push([part]);
  }
  const callParts = calls.map((call, index) => {
    const part: Record<string, any> = { functionCall: { name: call.name, args: call.args ?? {} } };
    if (index === 0) {
      part.thoughtSignature = opaqueToken('gsig_', turnIndex, 'call', call.name);
      signed.push({ key: partKey(part)!, signature: part.thoughtSignature });
    }
    return part;
  });
  if (callParts.length) chunks.push(callParts);
  if (chunks.length === 0) chunks.push([{ text: '' }]);
  const thoughts = includeThoughts && turn.reasoning ? 40 : 0;
  return chunks
    .map((parts, index) => {
      const last = index === chunks.length - 1;
      const candidate: Record<string, any> = { content: { parts, role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
      const usageMetadata = {
        promptTokenCount: 300 + turnIndex,
        ...(last ? { candidatesTokenCount: 25 } : {}),
        totalTokenCount: 300 + turnIndex + (last ? 25 : 0) + thoughts,
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      };
      return `data: ${JSON.stringify({ candidates: [candidate], usageMetadata, modelVersion: model, responseId })}\r\n\r\n`;
    })
    .join('');
}

type Part = Record<string, any>;

/** The rules the real Gemini API enforces on a `generateContent` request's shape. */
export function validateGeminiRequest(body: Record<string, any>, headers: Record<string, string | string[] | undefined> = {}, signed: SignedPart[] = []): string[] {
  const problems: string[] = [];
  if (!headerValue(headers, 'x-goog-api-key')) problems.push('no x-goog-api-key header (API key not valid)');
  const contents = body.contents as Array<{ role?: string; parts?: Part[] }> | undefined;
  if (!Array.isArray(contents) || contents.length === 0) return [...problems, '* GenerateContentRequest.contents: contents is not specified'];
  for (const declaration of (body.tools ?? []).flatMap((tool: { functionDeclarations?: Part[] }) => tool.functionDeclarations ?? []) as Part[]) {
    if (!toolNamePattern.test(declaration.name ?? '')) problems.push(`* functionDeclarations: invalid name ${JSON.stringify(declaration.name)}`);
    if (declaration.parameters && declaration.parametersJsonSchema) problems.push(`* functionDeclarations.${declaration.name}: parameters and parametersJsonSchema are both set`);
  }
  const issuedSignatures = new Set(signed.map((part) => part.signature));
  for (let index = 0; index < contents.length; index++) {
    const content = contents[index]!;
    const parts = content.parts ?? [];
    if (content.role !== 'user' && content.role !== 'model') problems.push(`* contents[${index}].role: must be user or model (got ${content.role})`);
    if (parts.length === 0) problems.push(`* contents[${index}].parts: must not be empty`);
    for (const [position, part] of parts.entries()) {
      const fields = ['text', 'functionCall', 'functionResponse', 'inlineData', 'fileData'].filter((field) => part[field] !== undefined);
      if (fields.length !== 1) problems.push(`* contents[${index}].parts[${position}]: exactly one data field is required (got ${fields.join(', ') || 'none'})`);
      problems.push(...geminiMediaPartProblems(part, `* contents[${index}].parts[${position}]`));
      if (part.thoughtSignature !== undefined && !issuedSignatures.has(part.thoughtSignature)) problems.push(`* contents[${index}].parts[${position}]: Corrupted thought signature.`);
      const key = partKey(part);
      const expected = key && content.role === 'model' ? signed.find((candidate) => candidate.key === key) : undefined;
      if (expected && part.thoughtSignature !== expected.signature) {
        problems.push(`* contents[${index}].parts[${position}]: ${part.functionCall ? `function call ${part.functionCall.name}` : 'text part'} is missing its thought_signature`);
      }
    }
    const calls = parts.filter((part) => part.functionCall);
    if (content.role === 'model' && calls.length > 0) {
      const next = contents[index + 1];
      const responses = (next?.parts ?? []).filter((part) => part.functionResponse);
      if (!next || next.role !== 'user' || responses.length !== calls.length) {
        problems.push(
          `* contents[${index + 1}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn (${calls.length} calls, ${responses.length} responses).`,
        );
      }
      for (const [position, call] of calls.entries()) {
        const response = responses[position];
        if (response && response.functionResponse.name !== call.functionCall.name) {
          problems.push(`* contents[${index + 1}]: function response ${position} is named ${response.functionResponse.name} but answers ${call.functionCall.name}`);
        }
      }
    }
    for (const part of parts.filter((candidate) => candidate.functionResponse)) {
      const previous = contents[index - 1];
      if (content.role !== 'user' || previous?.role !== 'model' || !(previous.parts ?? []).some((candidate) => candidate.functionCall?.name === part.functionResponse.name)) {
        problems.push(`* contents[${index}]: functionResponse ${part.functionResponse.name} does not follow a matching functionCall`);
      }
      const response = part.functionResponse.response;
      if (typeof response !== 'object' || response === null || Array.isArray(response)) problems.push(`* contents[${index}]: functionResponse.response must be an object`);
    }
  }
  return problems;
}
