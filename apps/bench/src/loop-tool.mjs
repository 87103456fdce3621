// The tool and prompt both loops use, so they send requests of the same shape.
export const systemPrompt = 'You are a benchmark agent. Call the echo tool until told to stop.';
export const echoParameters = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };
export const modelId = 'gpt-4.1-mini';
