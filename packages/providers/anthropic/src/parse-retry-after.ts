// Retry-after parsing is shared by every adapter and lives in core; these names stay for users.
export { maxRetryAfterMs as MAX_RETRY_AFTER_MS, parseRetryAfterHeaders as parseRetryAfter, type RetryAfterAdvice, retryAfterNote } from '@cairn/core';
