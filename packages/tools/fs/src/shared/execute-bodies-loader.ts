import { lazyImplementation } from '@cairn/core';

/** The fs tools' execute bodies (execute-bodies.ts), loaded together at the first call of any of them. */
export const executeBodies = lazyImplementation(() => import('../execute-bodies.js'));
