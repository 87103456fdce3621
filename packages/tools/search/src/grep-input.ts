import { ToolError } from '@cairn/core';
import { fileTypeGlobs } from './file-types.js';

export interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  type?: string;
  '-i'?: boolean;
  '-A'?: number;
  '-B'?: number;
  '-C'?: number;
  multiline?: boolean;
  output_mode?: 'content' | 'files_with_matches' | 'count';
  head_limit?: number;
}

export const grepInputJsonSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Regular expression (ripgrep / Rust syntax), e.g. "log.*Error" or "function\\s+\\w+".' },
    path: { type: 'string', description: 'File or folder to search, relative to the workspace root. Default: the whole workspace.' },
    glob: { type: 'string', description: 'Only files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}"; prefix with ! to exclude.' },
    type: { type: 'string', description: 'Only files of this ripgrep type, e.g. js, ts, py, go, rust, java.' },
    '-i': { type: 'boolean', description: 'Case-insensitive search.' },
    '-A': { type: 'integer', minimum: 0, description: 'Lines of context after each match (content mode).' },
    '-B': { type: 'integer', minimum: 0, description: 'Lines of context before each match (content mode).' },
    '-C': { type: 'integer', minimum: 0, description: 'Lines of context before and after each match (content mode).' },
    multiline: { type: 'boolean', description: 'Let the pattern span lines; "." also matches a newline.' },
    output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'], description: 'content (default): matching lines as path:line:text; files_with_matches: paths only; count: path:count.' },
    head_limit: { type: 'integer', minimum: 1, description: 'Only the first N lines / files / counts.' },
  },
  required: ['pattern'],
  additionalProperties: false,
} as const;

export interface GrepPlan {
  pattern: string;
  ignoreCase: boolean;
  multiline: boolean;
  before: number;
  after: number;
  mode: 'content' | 'files_with_matches' | 'count';
  glob?: string;
  type?: string;
  headLimit?: number;
}

const maxContext = 50;

function count(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ToolError(`${name} must be a whole number of lines (0 or more).`);
  return Math.min(value, maxContext);
}

/** Validate the model's arguments once, for both engines. */
export function planGrep(input: GrepInput): GrepPlan {
  if (typeof input.pattern !== 'string' || input.pattern.length === 0) throw new ToolError('pattern is required: a regular expression to search for.');
  if (input.pattern.length > 2000) throw new ToolError('The pattern is too long (over 2000 characters); search for a shorter, more specific pattern.');
  const mode = input.output_mode ?? 'content';
  if (!['content', 'files_with_matches', 'count'].includes(mode)) throw new ToolError('output_mode must be content, files_with_matches or count.');
  if (input.type !== undefined && !Object.hasOwn(fileTypeGlobs, input.type)) {
    throw new ToolError(`Unknown file type "${input.type}". Use one of: ${Object.keys(fileTypeGlobs).join(', ')}, or a glob instead.`);
  }
  if (input.glob !== undefined && (typeof input.glob !== 'string' || input.glob.trim() === '')) throw new ToolError('glob must be a non-empty pattern such as "*.ts".');
  const context = count(input['-C'], '-C');
  const plan: GrepPlan = {
    pattern: input.pattern,
    ignoreCase: input['-i'] === true,
    multiline: input.multiline === true,
    before: count(input['-B'], '-B') ?? context ?? 0,
    after: count(input['-A'], '-A') ?? context ?? 0,
    mode,
  };
  if (mode !== 'content') {
    plan.before = 0;
    plan.after = 0;
  }
  if (input.glob !== undefined) plan.glob = input.glob.trim();
  if (input.type !== undefined) plan.type = input.type;
  const headLimit = count(input.head_limit, 'head_limit');
  if (headLimit) plan.headLimit = input.head_limit;
  return plan;
}
