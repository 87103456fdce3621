import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type xterm from '@xterm/headless';
import { paletteColor, rgbColor, theme } from './xterm-colors.js';

type Cell = NonNullable<ReturnType<NonNullable<ReturnType<xterm.Terminal['buffer']['active']['getLine']>>['getCell']>>;

interface Style {
  fg: string;
  bg: string | undefined;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  dim: boolean;
}

interface Run {
  column: number;
  text: string;
  style: Style;
}

const cellWidth = 8.4;
const lineHeight = 18;
const fontSize = 14;
const padding = 14;
const titleBar = 28;

const docsFolder = resolve(import.meta.dirname, '../../../../docs/cli');

/**
 * Saves the terminal's visible screen as `docs/cli/<name>.svg` when CAIRN_UPDATE_SCREENSHOTS=1;
 * otherwise does nothing, so a test run never changes the docs.
 */
export async function saveScreenshot(terminal: xterm.Terminal, name: string, options: ScreenshotOptions = {}): Promise<string | undefined> {
  if (process.env.CAIRN_UPDATE_SCREENSHOTS !== '1') return undefined;
  const file = join(docsFolder, `${name}.svg`);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, renderSvg(terminal, options));
  return file;
}

export interface ScreenshotOptions {
  /** The window's title. */
  title?: string;
  /** Text to show differently, e.g. a temp folder as `~/project`: a picture never shows this machine's paths. */
  replace?: Array<[from: string, to: string]>;
}

/** The visible screen as an SVG picture: a window frame, each styled run of cells as a text element. */
export function renderSvg(terminal: xterm.Terminal, options: ScreenshotOptions = {}): string {
  const title = options.title ?? 'cairn';
  const rows = screenRuns(terminal).map((runs) => replaceText(runs, options.replace ?? []));
  while (rows.length > 1 && rows.at(-1)?.length === 0) rows.pop();
  const width = Math.ceil(terminal.cols * cellWidth + 2 * padding);
  const height = Math.ceil(titleBar + rows.length * lineHeight + 2 * padding);
  const body = rows.map((runs, row) => rowSvg(runs, titleBar + padding + row * lineHeight)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${fontSize}">
<rect width="${width}" height="${height}" rx="8" fill="${theme.background}"/>
<circle cx="18" cy="14" r="5" fill="#f38ba8"/><circle cx="34" cy="14" r="5" fill="#f9e2af"/><circle cx="50" cy="14" r="5" fill="#a6e3a1"/>
<text x="${width / 2}" y="18" fill="${theme.title}" text-anchor="middle" font-size="12">${escapeXml(title)}</text>
${body}
</svg>
`;
}

/**
 * Applies the replacements inside each run. A shorter text is padded with spaces, so what follows
 * (a box's right border) stays in its column; a longer one moves the runs after it.
 */
function replaceText(runs: Run[], replacements: Array<[string, string]>): Run[] {
  let shift = 0;
  return runs.map((run) => {
    let text = run.text;
    for (const [from, to] of replacements) text = text.replaceAll(from, to);
    if (text.length < run.text.length) text = text.padEnd(run.text.length);
    const moved = { ...run, column: run.column + shift, text };
    shift += text.length - run.text.length;
    return moved;
  });
}

function rowSvg(runs: Run[], top: number): string {
  const parts: string[] = [];
  for (const run of runs) {
    const x = (padding + run.column * cellWidth).toFixed(1);
    const runWidth = (run.text.length * cellWidth).toFixed(1);
    if (run.style.bg) parts.push(`<rect x="${x}" y="${top}" width="${runWidth}" height="${lineHeight}" fill="${run.style.bg}"/>`);
    if (run.text.trim()) parts.push(`<text x="${x}" y="${top + 14}" xml:space="preserve"${styleAttributes(run.style)}>${escapeXml(run.text)}</text>`);
  }
  return parts.join('');
}

function styleAttributes(style: Style): string {
  let attributes = ` fill="${style.fg}"`;
  if (style.bold) attributes += ' font-weight="bold"';
  if (style.italic) attributes += ' font-style="italic"';
  if (style.underline) attributes += ' text-decoration="underline"';
  if (style.dim) attributes += ' opacity="0.6"';
  return attributes;
}

/** Each visible row as runs of cells with one style; trailing blank default cells dropped. */
function screenRuns(terminal: xterm.Terminal): Run[][] {
  const buffer = terminal.buffer.active;
  const rows: Run[][] = [];
  for (let row = 0; row < terminal.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    const runs: Run[] = [];
    for (let column = 0; line && column < terminal.cols; column++) {
      const cell = line.getCell(column);
      if (!cell || cell.getWidth() === 0) continue;
      const style = cellStyle(cell);
      const text = cell.getChars() || ' ';
      const last = runs.at(-1);
      if (last && sameStyle(last.style, style) && last.column + last.text.length === column && cell.getWidth() === 1) last.text += text;
      else runs.push({ column, text, style });
    }
    while (runs.length > 0 && !runs.at(-1)?.text.trim() && !runs.at(-1)?.style.bg) runs.pop();
    const last = runs.at(-1);
    if (last && !last.style.bg) last.text = last.text.trimEnd();
    rows.push(runs);
  }
  return rows;
}

function cellStyle(cell: Cell): Style {
  let fg = cell.isFgDefault() ? theme.foreground : cell.isFgRGB() ? rgbColor(cell.getFgColor()) : paletteColor(cell.getFgColor());
  let bg = cell.isBgDefault() ? undefined : cell.isBgRGB() ? rgbColor(cell.getBgColor()) : paletteColor(cell.getBgColor());
  if (cell.isInverse()) [fg, bg] = [bg ?? theme.background, fg];
  // Bright variants for bold text in the first 8 colours, as most terminals draw them.
  if (cell.isBold() && cell.isFgPalette() && cell.getFgColor() < 8) fg = paletteColor(cell.getFgColor() + 8);
  return { fg, bg, bold: Boolean(cell.isBold()), italic: Boolean(cell.isItalic()), underline: Boolean(cell.isUnderline()), dim: Boolean(cell.isDim()) };
}

function sameStyle(a: Style, b: Style): boolean {
  return a.fg === b.fg && a.bg === b.bg && a.bold === b.bold && a.italic === b.italic && a.underline === b.underline && a.dim === b.dim;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[character] as string);
}
