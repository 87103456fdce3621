import type { ToolCategory } from '../spec/tool/v1/index.js';

/** What the auto-reviewer judges: shell commands, MCP tools and web fetches (the reference's Shell, MCP and Fetch). */
export type ReviewTarget = 'shell' | 'mcp' | 'fetch';

/**
 * Custom tools (`local.customTools`, category `custom`) are not reviewed: the user wrote them, and
 * the reference lets them skip approval in auto-review runs. Every other tool is covered by the
 * permission rules, the protected paths and the sandbox alone.
 */
export function reviewTargetOf(tool: { toolId: string; category: ToolCategory }): ReviewTarget | undefined {
  if (tool.category === 'shell') return 'shell';
  if (tool.category === 'mcp') return 'mcp';
  if (tool.toolId === 'webFetch') return 'fetch';
  return undefined;
}

/** The permission decision before the reviewer: the engine's verdict, `ask` unresolved. */
export interface RuleVerdict {
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  /** The deciding rule as the engine writes it: `allow: shell(npm test) [agent]`. */
  rule?: string;
}

export interface ReviewSituation {
  target: ReviewTarget | undefined;
  /** Someone answers `ask` (a canUseTool callback or the run's approvals): the reviewer never takes it from them. */
  personAnswersAsk: boolean;
  /** The person already approved this call through canUseTool. */
  personApproved: boolean;
  /** A shell command every part of which the engine knows to be read-only. */
  readOnlyCommand: boolean;
}

/**
 * - `review`: the reviewer decides (allow or deny);
 * - `keep`: the verdict stands;
 * - `rules`: an `ask` the reviewer may not take: resolve it as the rules do without a reviewer
 *   (headless: deny).
 */
export type ReviewStep = 'review' | 'keep' | 'rules';

/**
 * Where the reviewer comes in. Explicit decisions are the user's and stand: a deny (rule or
 * built-in), an allow rule, a person's answer. What is left to a judgement is reviewed: calls the
 * default let through, unless read-only, and `ask` when nobody is there to answer it. An `ask`
 * caused by a deny rule that may match (a program known only at run time) is never the
 * reviewer's to allow.
 */
export function reviewStep(verdict: RuleVerdict, situation: ReviewSituation): ReviewStep {
  if (verdict.decision === 'deny') return 'keep';
  if (verdict.decision === 'ask') {
    if (situation.personAnswersAsk) return 'keep';
    if (situation.target === undefined || isDenyRule(verdict.rule)) return 'rules';
    return 'review';
  }
  if (situation.target === undefined || verdict.rule !== undefined || situation.personApproved) return 'keep';
  return situation.readOnlyCommand ? 'keep' : 'review';
}

function isDenyRule(rule: string | undefined): boolean {
  return rule?.startsWith('deny:') === true;
}
