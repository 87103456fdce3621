import type { RunStatus, SDKStatus } from '../spec/events/v1/index.js';

const sdkStatuses: Record<RunStatus, SDKStatus> = { running: 'RUNNING', finished: 'FINISHED', error: 'ERROR', cancelled: 'CANCELLED' };

/** The `status` message value of a run status: the reference SDK's upper-case set. */
export function sdkStatusOf(status: RunStatus): SDKStatus {
  return sdkStatuses[status];
}
