import { Marked } from 'marked';
import { markedTerminal } from 'marked-terminal';

/**
 * Markdown for the terminal: marked parses, marked-terminal styles (it highlights fenced code with
 * cli-highlight). One parser per width and colour setting, built on first use.
 */
const parsers = new Map<string, Marked>();

function parserFor(width: number, color: boolean): Marked {
  const key = `${width}:${color}`;
  let parser = parsers.get(key);
  if (!parser) {
    // marked-terminal's types lag its options; `width` and `reflowText` wrap paragraphs to the terminal.
    const options = { width, reflowText: true, tab: 2, emoji: false, showSectionPrefix: false, ...(color ? {} : plainStyles) };
    parser = new Marked(markedTerminal(options as Parameters<typeof markedTerminal>[0]) as never);
    parsers.set(key, parser);
  }
  return parser;
}

const identity = (text: string) => text;
/** Without colour every style is the plain text (NO_COLOR, or output that is not a terminal). */
const plainStyles = Object.fromEntries(
  ['code', 'blockquote', 'html', 'heading', 'firstHeading', 'hr', 'listitem', 'table', 'paragraph', 'strong', 'em', 'codespan', 'del', 'link', 'href', 'text'].map((name) => [name, identity]),
);

/** The markdown `text` styled for a terminal `width` columns wide, without the trailing blank lines. */
export function renderMarkdown(text: string, options: { width: number; color: boolean }): string {
  if (!text.trim()) return '';
  try {
    const rendered = parserFor(Math.max(20, options.width), options.color).parse(text, { async: false }) as string;
    return rendered.replace(/\s+$/, '');
  } catch {
    // A half-streamed construct marked cannot parse is shown as it is until more text arrives.
    return text;
  }
}

/**
 * Split a growing answer where it is safe to freeze what came before: after the last blank line
 * that is not inside a fenced code block. `done` will not change as more text streams in (so it
 * can move to Ink's <Static>); `rest` is re-rendered on every delta.
 */
export function splitStableMarkdown(text: string): { done: string; rest: string } {
  let inFence = false;
  let cut = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const end = offset + line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.trim() === '' && end <= text.length && offset > 0) cut = end;
    offset = end;
  }
  return { done: text.slice(0, cut), rest: text.slice(cut) };
}
