import vm from 'node:vm';
import type { TranslatedRegex } from './rust-regex.js';

/**
 * Runs JavaScript regular expressions in a V8 context with a time limit. JavaScript regexes
 * backtrack, so a pattern like `(a+)+$` can take forever on one line; `vm`'s timeout interrupts
 * it (ripgrep's automata never need this). Returns matched blocks as [firstLine, lastLine] (0-based).
 */
export class MatchSandbox {
  private readonly context: vm.Context;
  private readonly script = new vm.Script('__cairnSearch(__cairnInput)');

  constructor(regex: TranslatedRegex, multiline: boolean) {
    this.context = vm.createContext({ __cairnInput: '' });
    vm.runInContext(
      `const __cairnRegex = new RegExp(${JSON.stringify(regex.source)}, ${JSON.stringify(`${regex.flags}g`)});
      const __cairnMultiline = ${multiline};
      function __cairnSearch(text) {
        const blocks = [];
        if (!__cairnMultiline) {
          let line = 0;
          let start = 0;
          // A trailing newline ends the last line; it does not start an empty one.
          while (start < text.length) {
            let end = text.indexOf('\\n', start);
            if (end === -1) end = text.length;
            __cairnRegex.lastIndex = 0;
            if (__cairnRegex.test(text.slice(start, end))) blocks.push(line, line);
            line++;
            start = end + 1;
          }
          return blocks;
        }
        const lineStarts = [0];
        for (let index = text.indexOf('\\n'); index !== -1; index = text.indexOf('\\n', index + 1)) lineStarts.push(index + 1);
        const lineCount = text.endsWith('\\n') ? lineStarts.length - 1 : lineStarts.length;
        const lineOf = (offset) => {
          let low = 0, high = lineStarts.length - 1;
          while (low < high) { const mid = (low + high + 1) >> 1; if (lineStarts[mid] <= offset) low = mid; else high = mid - 1; }
          return low;
        };
        __cairnRegex.lastIndex = 0;
        for (let match = __cairnRegex.exec(text); match; match = __cairnRegex.exec(text)) {
          const first = lineOf(match.index);
          // A match ending right after a newline does not include the next line.
          const endOffset = match[0].length === 0 ? match.index : match.index + match[0].length - 1;
          const last = Math.max(first, lineOf(endOffset));
          if (first < lineCount) {
            const previousLast = blocks.length > 0 ? blocks[blocks.length - 1] : -1;
            if (blocks.length > 0 && first <= previousLast) blocks[blocks.length - 1] = Math.max(previousLast, last);
            else blocks.push(first, last);
          }
          if (match[0].length === 0) __cairnRegex.lastIndex++;
        }
        return blocks;
      }`,
      this.context,
    );
  }

  /** Throws an error with code ERR_SCRIPT_EXECUTION_TIMEOUT when the time runs out. */
  search(text: string, timeoutMs: number): Array<[number, number]> {
    this.context.__cairnInput = text;
    const flat = this.script.runInContext(this.context, { timeout: Math.max(1, Math.floor(timeoutMs)) }) as number[];
    const blocks: Array<[number, number]> = [];
    for (let index = 0; index + 1 < flat.length; index += 2) blocks.push([flat[index] as number, flat[index + 1] as number]);
    return blocks;
  }
}
