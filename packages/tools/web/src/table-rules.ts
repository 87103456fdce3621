import type TurndownService from 'turndown';

/**
 * GFM tables for turndown (the core library renders tables as loose text). Simple tables only:
 * each cell's markdown is put on one line with `|` escaped; a table without a header row gets an
 * empty one, since GFM requires it. Nested tables are flattened into their cell.
 */
export function addTableRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const text = content.replace(/\n+/g, ' ').replace(/\|/g, '\\|').trim();
      return `${isFirstCell(node) ? '| ' : ' '}${text} |`;
    },
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as HTMLTableRowElement;
      const cells = Array.from(row.children).filter((child) => child.nodeName === 'TH' || child.nodeName === 'TD').length;
      const separator = `| ${new Array(cells).fill('---').join(' | ')} |`;
      if (isHeadingRow(row)) return `\n${content}\n${separator}`;
      if (isFirstRow(row)) return `\n| ${new Array(cells).fill(' ').join(' | ')} |\n${separator}\n${content}`;
      return `\n${content}`;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.replace(/\n+/g, '\n').trim()}\n\n` });
}

function isFirstCell(node: Node): boolean {
  const parent = node.parentNode as Element | null;
  return parent ? Array.from(parent.children)[0] === node : true;
}

function rowsOf(row: HTMLTableRowElement): Element[] {
  let table: Node | null = row.parentNode;
  while (table && table.nodeName !== 'TABLE') table = table.parentNode;
  if (!table) return [row];
  const rows: Element[] = [];
  for (const child of Array.from((table as Element).children)) {
    if (child.nodeName === 'TR') rows.push(child);
    else for (const inner of Array.from(child.children)) if (inner.nodeName === 'TR') rows.push(inner);
  }
  return rows;
}

function isFirstRow(row: HTMLTableRowElement): boolean {
  return rowsOf(row)[0] === row;
}

function isHeadingRow(row: HTMLTableRowElement): boolean {
  if (row.parentNode?.nodeName === 'THEAD') return isFirstRow(row);
  const cells = Array.from(row.children);
  return isFirstRow(row) && cells.length > 0 && cells.every((cell) => cell.nodeName === 'TH');
}
