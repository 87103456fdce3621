import { describe, expect, it } from 'vitest';
import { AgentBusyError, CairnError, ConfigurationError, isRetryableStatus, ProviderError, ToolError, UnsupportedRunOperationError } from './index.js';

describe('errors', () => {
  it('brand checks work across copies (no instanceof needed)', () => {
    const error = new ProviderError('slow down', { provider: 'openai', status: 429, retryAfterMs: 1000 });
    const copy = Object.assign(Object.create(null), { [Symbol.for('cairn.error.ProviderError')]: true, [Symbol.for('cairn.error.CairnError')]: true });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(CairnError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(copy)).toBe(true);
    expect(ConfigurationError.isInstance(error)).toBe(false);
    expect(ToolError.isInstance(new ToolError('x'))).toBe(true);
    expect(AgentBusyError.isInstance(new AgentBusyError('agent-1', 'run-1'))).toBe(true);
    expect(UnsupportedRunOperationError.isInstance(new UnsupportedRunOperationError('cancel', 'ended'))).toBe(true);
  });

  it('defaults isRetryable from the HTTP status', () => {
    expect([408, 409, 429, 500, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 413].some(isRetryableStatus)).toBe(false);
    expect(new ProviderError('x', { provider: 'a', status: 529 }).isRetryable).toBe(true);
    expect(new ProviderError('x', { provider: 'a', status: 401 }).isRetryable).toBe(false);
  });

  it('messages say what to do', () => {
    expect(new AgentBusyError('agent-1', 'run-9').message).toMatch(/force/);
  });
});
