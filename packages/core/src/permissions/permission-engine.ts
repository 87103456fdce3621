import { isAbsolute, relative, resolve, sep } from 'node:path';
import { agentHomes, protectedPathReason } from '../node/protected-paths.js';
import { sensitiveFileReason } from '../node/sensitive-files.js';
import type { ToolCategory } from '../spec/tool/v1/index.js';
import type { DeniedFilesIndex } from '../node/denied-files.js';
import { pathRuleMatches } from './path-rules.js';
import { commandGlobToRegExp, globToRegExp, isCustomUserTool, mcpSubject, type ParsedPermissionRule, type PermissionDecision, type PermissionRules, parsePermissionRules, urlMatches } from './permission-rules.js';
import { createReadDenyCommandCheck } from './read-deny-commands.js';
import { analyzeShellCommand, type ShellCommandAnalysis } from './shell-analysis.js';
import { allowCoverage, findAnyPartRule, possibleMatchReason, runThrough } from './shell-rules.js';
import { protectedShellWrite } from './shell-protected-writes.js';

export interface PermissionLayer {
  /** `send`, `agent`, `project`, `user` or any other name; only used in reasons. Order does not matter: deny wins. */
  source: 'send' | 'agent' | 'project' | 'user' | (string & {});
  rules: PermissionRules;
}

export interface PermissionCheckRequest {
  toolId: string;
  toolName: string;
  category: ToolCategory;
  readOnly: boolean;
  input: unknown;
  /** Absolute paths the call touches (from `tool.paths(input)`, resolved against cwd). */
  paths: string[];
  /** What a rule's specifier matches (`tool.ruleSubject(input)`): the shell command, the URL, or an MCP or custom tool's `server:tool`. */
  subject?: string;
  /** The canonical workspace root. */
  cwd: string;
}

export interface PermissionResult {
  /** `ask` only with `deferAsk`: the caller asks the user (see PermissionEngineOptions.deferAsk). */
  decision: 'allow' | 'deny' | 'ask';
  reason: string;
  /** The rule that decided, as written (`deny: shell(rm*) [user]`). */
  rule?: string;
  /** With `ask`: what to show the person who answers (and pass to `canUseTool`). */
  request?: PermissionRequest;
}

/** What a `canUseTool` callback is asked when a rule (or the default) says `ask`. */
export interface PermissionRequest extends PermissionCheckRequest {
  reason: string;
  rule?: string;
  interactive: boolean;
  /** Present for shell calls: the parsed command, so a UI can show each part. */
  shellAnalysis?: ShellCommandAnalysis;
}

export type CanUseToolResult = 'allow' | 'deny' | { behavior: 'allow' | 'deny'; message?: string };
export type CanUseTool = (request: PermissionRequest) => Promise<CanUseToolResult> | CanUseToolResult;

export interface PermissionEngineOptions {
  layers: PermissionLayer[];
  /**
   * The decision when no rule matches a call that is not known to be harmless: a non-read-only
   * shell command, a write in the workspace, an MCP/custom/web tool. Default `allow` (a headless
   * SDK run is expected to get work done; the OS sandbox is the boundary). Use `ask` to route
   * those calls through `canUseTool` (headless without a callback: deny).
   */
  defaultDecision?: PermissionDecision;
  canUseTool?: CanUseTool;
  /**
   * Return `ask` decisions to the caller (with the request to show) instead of resolving them here:
   * the run asks the user itself, through its durable awaitingApproval state. Set it only when the
   * run has a way to get an answer; like `canUseTool`, it also routes sensitive-file writes to `ask`.
   */
  deferAsk?: boolean;
  /** Passed to `canUseTool`; without a callback, `ask` is always a deny. */
  interactive?: boolean;
  /** Explicit bypass: let writes reach protected paths (.git internals, .cairn/, shell start-up files). Default false. */
  allowProtectedPathWrites?: boolean;
  /**
   * Set in plan / ask (the mode's name): every tool that is not read-only is refused whatever the
   * rules say. The shell is not refused here: in those modes it must run in the read-only OS
   * sandbox, which the runtime requests through `context.sandbox`.
   */
  readOnlyMode?: string;
  /** The workspace root used by `isPathDenied` when no cwd is passed (relative rules are relative to it). */
  cwd?: string;
  /** The HOME of the commands (the agent's environment): `~/` in read deny rules and in commands means it too. */
  home?: string;
  /** The agent's `$CAIRN_HOME` (default `~/.cairn`): its settings are protected like `.git`, for every tool. */
  cairnHome?: string;
}

export interface PermissionEngine {
  check(request: PermissionCheckRequest): Promise<PermissionResult>;
  /** For tools that discover files (grep, glob, ls, semantic search): is this file hidden by a deny rule? */
  isPathDenied(absolutePath: string, toolId: string, cwd?: string): boolean;
  /** The existing files the read deny rules hide (globs expanded on disk), for checks below the rule level. */
  deniedFiles(cwd?: string): DeniedFilesIndex;
  readonly rules: readonly ParsedPermissionRule[];
}

const pathToolIds = new Set(['read', 'write', 'edit', 'delete', 'ls', 'glob', 'grep', 'semSearch', 'notebook', 'lints']);
// `read(...)` rules cover every tool that reads or discovers files; `edit(...)` every tool that changes them.
const readingToolIds = new Set(['read', 'ls', 'glob', 'grep', 'semSearch', 'lints']);
const editingToolIds = new Set(['write', 'edit', 'delete', 'notebook']);

// Whole-segment containment (not startsWith). Local so this module needs no file-system import.
function isInsideRoot(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const describeRule = (rule: ParsedPermissionRule) => `${rule.decision}: ${rule.text} [${rule.source}]`;

function ruleNamesTool(rule: ParsedPermissionRule, request: Pick<PermissionCheckRequest, 'toolId' | 'toolName' | 'category'>): boolean {
  if (rule.tool === request.toolId || rule.tool === request.toolName) return true;
  if (rule.tool === 'shell') return request.category === 'shell';
  if (rule.tool === 'mcp') return request.category === 'mcp' || request.category === 'custom';
  if (rule.tool === 'read') return readingToolIds.has(request.toolId);
  if (rule.tool === 'edit') return editingToolIds.has(request.toolId);
  return false;
}

export function createPermissionEngine(options: PermissionEngineOptions): PermissionEngine {
  const rules = options.layers.flatMap((layer) => parsePermissionRules(layer.rules ?? {}, layer.source));
  const defaultDecision = options.defaultDecision ?? 'allow';
  const byDecision = (decision: PermissionDecision) => rules.filter((rule) => rule.decision === decision);
  const denyRules = byDecision('deny');
  const askRules = byDecision('ask');
  const allowRules = byDecision('allow');
  const defaults = agentHomes();
  // Whose settings no tool may change: those the settings loaders read for this agent (its env).
  const homes = { cairnHome: options.cairnHome ?? defaults.cairnHome, userHome: options.home ?? defaults.userHome };
  const readDeny = createReadDenyCommandCheck({ denyRules, ...(options.home ? { home: options.home } : {}) });

  /** Does `rule` (already naming the tool) match this call? `mode` any: one path/part suffices; all: every one. */
  function specifierMatches(rule: ParsedPermissionRule, request: PermissionCheckRequest, mode: 'any' | 'all'): boolean {
    if (rule.specifier === undefined) return true;
    if (request.category === 'mcp' || request.category === 'custom' || rule.tool === 'mcp') {
      const pattern = globToRegExp(rule.specifier);
      // A custom tool is matched by `custom-user-tools:<name>` and, as before, by its bare name.
      return pattern.test(mcpSubject(request.toolName, request.toolId, request.subject)) || (isCustomUserTool(request) && pattern.test(request.toolName));
    }
    if (request.toolId === 'webFetch' || request.category === 'web') {
      return request.subject !== undefined && urlMatches(rule.specifier, request.subject);
    }
    if (pathToolIds.has(request.toolId) || request.paths.length > 0) {
      if (request.paths.length === 0) return false;
      const test = (path: string) => pathRuleMatches(rule.specifier as string, path, request.cwd);
      return mode === 'any' ? request.paths.some(test) : request.paths.every(test);
    }
    return request.subject !== undefined && urlMatches(rule.specifier, request.subject);
  }

  const firstMatch = (list: ParsedPermissionRule[], request: PermissionCheckRequest, mode: 'any' | 'all') =>
    list.find((rule) => ruleNamesTool(rule, request) && specifierMatches(rule, request, mode));

  async function resolveAsk(request: PermissionCheckRequest, reason: string, rule: ParsedPermissionRule | undefined, shellAnalysis?: ShellCommandAnalysis): Promise<PermissionResult> {
    const ruleText = rule ? describeRule(rule) : undefined;
    const withRule = (result: PermissionResult): PermissionResult => (ruleText ? { ...result, rule: ruleText } : result);
    const permissionRequest: PermissionRequest = { ...request, reason, interactive: options.interactive ?? false };
    if (ruleText) permissionRequest.rule = ruleText;
    if (shellAnalysis) permissionRequest.shellAnalysis = shellAnalysis;
    if (options.deferAsk) return withRule({ decision: 'ask', reason, request: permissionRequest });
    if (!options.canUseTool) {
      return withRule({ decision: 'deny', reason: `${reason}; this call needs approval and no canUseTool callback was given (headless runs deny it)` });
    }
    const answer = await options.canUseTool(permissionRequest);
    const behavior = typeof answer === 'string' ? answer : answer.behavior;
    const message = typeof answer === 'string' ? undefined : answer.message;
    if (behavior === 'allow') return withRule({ decision: 'allow', reason: message ?? `${reason}; approved by canUseTool` });
    return withRule({ decision: 'deny', reason: message ?? `${reason}; refused by canUseTool` });
  }

  async function decide(decision: PermissionDecision, request: PermissionCheckRequest, reason: string, rule?: ParsedPermissionRule, analysis?: ShellCommandAnalysis): Promise<PermissionResult> {
    // As in the reference SDK: custom tools skip interactive approval; deny rules still refuse them.
    if (decision === 'ask' && isCustomUserTool(request)) return decide('allow', request, `${reason}; custom tools (local.customTools) skip interactive approval`, rule);
    if (decision === 'ask') return resolveAsk(request, reason, rule, analysis);
    const result: PermissionResult = { decision, reason };
    if (rule) result.rule = describeRule(rule);
    return result;
  }

  async function checkShell(request: PermissionCheckRequest): Promise<PermissionResult> {
    const command = request.subject ?? (typeof (request.input as { command?: unknown })?.command === 'string' ? (request.input as { command: string }).command : '');
    const analysis = await analyzeShellCommand(command);
    const applicable = (list: ParsedPermissionRule[]) => list.filter((rule) => ruleNamesTool(rule, request));
    const deny = findAnyPartRule(applicable(denyRules), analysis);
    if (deny?.match === 'definite') return decide('deny', request, `the command matches a deny rule (${deny.rule.text})${runThrough(deny)}`, deny.rule);
    const readDenied = await readDeny.check(analysis, request.cwd, request.input);
    if (readDenied) return decide('deny', request, readDenied.reason, readDenied.rule);
    const protectedWrite = options.allowProtectedPathWrites ? undefined : protectedShellWrite(analysis, request.cwd, homes);
    if (protectedWrite) return decide('deny', request, `${protectedWrite}. Leave git internals and the agent's settings to the user (the explicit bypass is allowProtectedPathWrites)`);
    // A program known only at run time could be the denied one: fail closed (ask; headless: refused).
    if (deny) return decide('ask', request, possibleMatchReason(deny, 'deny'), deny.rule, analysis);
    const ask = findAnyPartRule(applicable(askRules), analysis);
    if (ask) return decide('ask', request, ask.match === 'definite' ? `the command matches an ask rule (${ask.rule.text})${runThrough(ask)}` : possibleMatchReason(ask, 'ask'), ask.rule, analysis);
    const allowShell = applicable(allowRules);
    const allowEverything = allowShell.find((rule) => rule.specifier === undefined);
    if (allowEverything) return decide('allow', request, 'every shell command is allowed', allowEverything);
    if (analysis.unparsable) return decide('ask', request, `the command cannot be analysed (${analysis.unparsableReason})`, undefined, analysis);
    // A redirection is allowed by a rule only when the rule itself names a redirection and the
    // command is one simple command without substitutions: a prefix rule like `git status*` must
    // never let `git status > x; touch y` through as a whole line.
    const wholeCommandRule =
      analysis.parts.length === 1 && !analysis.hasSubstitution
        ? allowShell.find((rule) => rule.specifier?.includes('>') && commandGlobToRegExp(rule.specifier).test(command.trim()))
        : undefined;
    if (analysis.hasRedirectionToFile) {
      if (wholeCommandRule) return decide('allow', request, 'the whole command line matches an allow rule', wholeCommandRule);
      return decide(defaultDecision, request, `the command writes to a file through a redirection (${analysis.redirectTargets.join(', ')})`, undefined, analysis);
    }
    const { uncovered, lastRule } = allowCoverage(allowShell, analysis);
    if (uncovered.length === 0) {
      if (analysis.parts.length === 0) return decide('allow', request, 'the command is empty');
      return decide('allow', request, lastRule ? 'every part of the command is allowed or read-only' : 'every part of the command is read-only', lastRule);
    }
    return decide(defaultDecision, request, `no rule allows ${uncovered.join('; ')}`, undefined, analysis);
  }

  async function check(request: PermissionCheckRequest): Promise<PermissionResult> {
    const normalized: PermissionCheckRequest = { ...request, paths: request.paths.map((path) => (isAbsolute(path) ? path : resolve(request.cwd, path))) };
    if (normalized.category === 'shell' || normalized.toolId === 'shell') return checkShell(normalized);
    if (options.readOnlyMode !== undefined && !normalized.readOnly) {
      return decide('deny', normalized, `${normalized.toolName} changes files or the world, and the ${options.readOnlyMode} mode is read-only`);
    }
    const deny = firstMatch(denyRules, normalized, 'any');
    if (deny) return decide('deny', normalized, `a deny rule matches (${deny.text})`, deny);
    const writes = !normalized.readOnly;
    if (writes && !options.allowProtectedPathWrites) {
      for (const path of normalized.paths) {
        const protectedReason = protectedPathReason(normalized.cwd, path, homes);
        if (protectedReason) return decide('deny', normalized, `writing ${path} is refused: ${protectedReason}`);
      }
    }
    // Files that make other programs run code (package.json scripts, CI workflows): someone who can
    // approve is asked, whatever the allow rules say; headless runs go on and the change is flagged.
    const sensitive = writes && (options.canUseTool || options.deferAsk) ? normalized.paths.find((path) => sensitiveFileReason(normalized.cwd, path)) : undefined;
    if (sensitive) return decide('ask', normalized, `changing ${sensitive} needs approval: ${sensitiveFileReason(normalized.cwd, sensitive)}`);
    const ask = firstMatch(askRules, normalized, 'any');
    if (ask) return decide('ask', normalized, `an ask rule matches (${ask.text})`, ask);
    const allow = firstMatch(allowRules, normalized, 'all');
    if (allow) return decide('allow', normalized, `an allow rule matches (${allow.text})`, allow);
    if (normalized.readOnly) return decide('allow', normalized, 'read-only tool');
    const outside = normalized.paths.filter((path) => !isInsideRoot(normalized.cwd, path));
    if (outside.length > 0) return decide('ask', normalized, `the call writes outside the workspace (${outside.join(', ')})`);
    return decide(defaultDecision, normalized, `no rule matches; default decision is ${defaultDecision}`);
  }

  function isPathDenied(absolutePath: string, toolId: string, cwd?: string): boolean {
    const root = cwd ?? options.cwd ?? process.cwd();
    return denyRules.some(
      (rule) =>
        // `edit(...)` covers every tool that changes files, as in check(): write, delete, notebook too.
        (rule.tool === toolId || rule.tool === 'read' || (rule.tool === 'edit' && editingToolIds.has(toolId))) &&
        (rule.specifier === undefined ? rule.tool === toolId : pathRuleMatches(rule.specifier, absolutePath, root)),
    );
  }

  return { check, isPathDenied, deniedFiles: (cwd) => readDeny.index(cwd ?? options.cwd ?? process.cwd()), rules };
}
