import { type AutoRunGuidance, autoRunGuidanceOf } from '../config/auto-run-guidance.js';
import { cairnHome } from '../config/workspace-config.js';
import { pathsForRules } from '../node/rule-paths.js';
import { analyzeShellCommand, type CanUseTool, createPermissionEngine, type PermissionCheckRequest, type PermissionEngineOptions, type PermissionLayer } from '../permissions/index.js';
import type { ToolDefinition } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';
import type { AutoReviewer, AutoReviewVerdict } from './auto-review.js';
import { reviewStep, reviewTargetOf, type ReviewTarget } from './auto-review-policy.js';
import { createDeniedLinks } from './denied-links.js';
import type { PermissionVerdict } from './tool-runner.js';

/** A permission verdict, and whether the auto-reviewer took part in it. */
export interface CheckedPermission extends PermissionVerdict {
  /** Set when the call was sent to the auto-reviewer: what it said. */
  reviewed?: AutoReviewVerdict['decision'];
}

export interface PermissionChecker {
  check(tool: ToolDefinition, input: unknown, paths: string[], mode: string, signal?: AbortSignal): Promise<CheckedPermission>;
  isPathDenied(absolutePath: string, toolId: string): boolean;
  /** The existing files the read deny rules hide, for the shell's OS-level masks. */
  readDeniedFiles(): Promise<{ paths: string[]; complete: boolean }>;
}

export interface PermissionCheckerExtras {
  /** The run's auto-reviewer (`local.autoReview`): judges shell, MCP and web-fetch calls the rules leave open. */
  reviewer?: AutoReviewer;
  /** The user's message of the run: what a reviewed call must serve. */
  intent?: string;
  /** Told once per run, the first time a review is unavailable (the notice the run shows). */
  onReviewUnavailable?(notice: string): void | Promise<void>;
  /** The run asks the user itself (its approvals state): `ask` verdicts are returned, not resolved. */
  deferAsk?: boolean;
}

/**
 * The permission decisions of one run: the agent's rules and extra layers (project and user
 * settings files) through the permission engine, where deny wins whatever layer it came from;
 * then, with a reviewer, the auto-review of what the rules left to a judgement (`reviewStep`).
 */
export function createPermissionChecker(
  options: AgentOptions,
  cwd: string,
  extraLayers: ReadonlyArray<PermissionLayer & { autoRun?: AutoRunGuidance }> = [],
  extras: PermissionCheckerExtras = {},
): PermissionChecker {
  const { reviewer } = extras;
  // Calls a person approved through canUseTool are the person's decision: the reviewer skips them.
  const approvedByPerson = new WeakSet<object>();
  const engineOptions: PermissionEngineOptions = {
    layers: [...(options.permissions ? [{ source: 'agent', rules: options.permissions }] : []), ...extraLayers],
    ...(options.defaultPermission ? { defaultDecision: options.defaultPermission } : {}),
    ...(options.canUseTool ? { canUseTool: reviewer ? noteApprovals(options.canUseTool, approvedByPerson) : options.canUseTool } : {}),
    ...(extras.deferAsk ? { deferAsk: true } : {}),
    ...(options.allowProtectedPathWrites ? { allowProtectedPathWrites: true } : {}),
    cwd,
    ...(options.env?.HOME ? { home: options.env.HOME } : {}),
    cairnHome: cairnHome(options.env),
  };
  const engine = createPermissionEngine(engineOptions);
  const personAnswersAsk = options.canUseTool !== undefined || extras.deferAsk === true;
  // Headless with a reviewer: the calls it may judge get their `ask` back unresolved, so the
  // reviewer answers it; every other call is decided exactly as without a reviewer.
  const reviewEngine = reviewer && !personAnswersAsk ? createPermissionEngine({ ...engineOptions, deferAsk: true }) : undefined;
  const deniedLinks = createDeniedLinks(engine, cwd);
  const guidance = autoRunGuidanceOf(extraLayers);
  let toldUnavailable = false;

  async function rulesVerdict(request: PermissionCheckRequest, target: ReviewTarget | undefined): Promise<CheckedPermission> {
    const verdict = await (reviewEngine && target ? reviewEngine : engine).check(request);
    return verdict.decision === 'allow' ? ((await deniedLinks.check(request.paths)) ?? verdict) : verdict;
  }

  async function review(request: PermissionCheckRequest, verdict: CheckedPermission, signal: AbortSignal | undefined): Promise<CheckedPermission> {
    const answer = await (reviewer as AutoReviewer).review(
      {
        toolId: request.toolId, toolName: request.toolName, category: request.category, input: request.input,
        ...(request.subject === undefined ? {} : { subject: request.subject }),
        intent: extras.intent ?? '', cwd, ...(guidance ? { guidance } : {}),
        ...(verdict.decision === 'ask' ? { concern: verdict.reason } : {}),
      },
      signal,
    );
    const rule = verdict.rule === undefined ? {} : { rule: verdict.rule };
    if (answer.decision === 'deny') {
      return { decision: 'deny', reason: `the auto-reviewer blocked this call: ${asSentence(answer.reason)} Do it another way that serves the user's request, or stop and say why this call is needed.`, ...rule, reviewed: 'deny' };
    }
    if (answer.decision === 'allow') {
      const allowed: CheckedPermission = { decision: 'allow', reason: `the auto-reviewer allowed it: ${answer.reason}`, ...rule, reviewed: 'allow' };
      return (await deniedLinks.check(request.paths)) ?? allowed;
    }
    if (!toldUnavailable) {
      toldUnavailable = true;
      await extras.onReviewUnavailable?.(autoReviewUnavailableNotice(answer.reason));
    }
    // The documented fallback: the call follows the rules as if there were no reviewer.
    const fallback = verdict.decision === 'ask' ? await rulesVerdict(request, undefined) : verdict;
    return { ...fallback, reviewed: 'unavailable' };
  }

  return {
    async check(tool, input, givenPaths, _mode, signal) {
      const subject = safeSubject(tool, input);
      const paths = await pathsForRules(givenPaths, cwd);
      const request: PermissionCheckRequest = { toolId: tool.id, toolName: tool.name, category: tool.category, readOnly: tool.readOnly, input, paths, cwd, ...(subject === undefined ? {} : { subject }) };
      const target = reviewer ? reviewTargetOf(request) : undefined;
      const verdict = await rulesVerdict(request, target);
      if (!reviewer) return verdict;
      const step = reviewStep(verdict, {
        target,
        personAnswersAsk,
        personApproved: typeof input === 'object' && input !== null && approvedByPerson.has(input),
        readOnlyCommand: target === 'shell' && verdict.decision === 'allow' && verdict.rule === undefined && (await isReadOnlyCommand(subject ?? '')),
      });
      if (step === 'keep') return verdict;
      if (step === 'rules') return rulesVerdict(request, undefined);
      return review(request, verdict, signal);
    },
    isPathDenied: (absolutePath, toolId) => engine.isPathDenied(absolutePath, toolId, cwd) || deniedLinks.isDenied(absolutePath),
    readDeniedFiles: () => deniedLinks.files(),
  };
}

/** The run's notice when a review could not be made. */
export function autoReviewUnavailableNotice(reason: string): string {
  return `local.autoReview: a review was unavailable (${reason}), so that call followed the permission rules and defaultPermission as usual.`;
}

function noteApprovals(canUseTool: CanUseTool, approved: WeakSet<object>): CanUseTool {
  return async (request) => {
    const answer = await canUseTool(request);
    const behavior = typeof answer === 'string' ? answer : answer.behavior;
    if (behavior === 'allow' && typeof request.input === 'object' && request.input !== null) approved.add(request.input);
    return answer;
  };
}

function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

async function isReadOnlyCommand(command: string): Promise<boolean> {
  return command.trim() === '' || (await analyzeShellCommand(command)).readOnly;
}

function safeSubject(tool: ToolDefinition, input: unknown): string | undefined {
  try {
    return tool.ruleSubject?.(input);
  } catch {
    return undefined;
  }
}
