import { createRequire } from 'node:module';
import type TurndownService from 'turndown';
import { addTableRules } from './table-rules.js';

type TurndownConstructor = typeof TurndownService;
let turndown: TurndownConstructor | undefined;

/**
 * turndown builds its HTML parser (the domino DOM, ~50 modules) when it is loaded, which cost
 * 50-60 ms of every process's start-up for a tool most runs never call: it loads at the first page.
 * It is a CommonJS package, so `require` gives the same module an import would, synchronously.
 */
function loadTurndown(): TurndownConstructor {
  turndown ??= createRequire(import.meta.url)('turndown') as TurndownConstructor;
  return turndown;
}

export interface PageMarkdown {
  title: string | undefined;
  markdown: string;
}

// Page chrome and non-content elements that would only spend the model's context. Not <form>:
// ASP.NET pages wrap their whole body in one.
const noiseElements: TurndownService.TagName[] = [
  'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg' as TurndownService.TagName,
  'nav', 'footer', 'aside', 'button', 'select', 'input', 'textarea', 'meta', 'link', 'head',
];

/**
 * HTML to markdown with turndown: ATX headings, fenced code blocks (language kept from
 * `class="language-x"`), links and images made absolute against the page URL, noise removed. The
 * `<title>` is returned separately so the tool can put it first.
 */
export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  let title: string | undefined;
  const Turndown = loadTurndown();
  const service = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
  service.addRule('title', {
    filter: 'title',
    replacement: (_content, node) => {
      title ??= (node.textContent ?? '').replace(/\s+/g, ' ').trim() || undefined;
      return '';
    },
  });
  // Registered after `title` so a <title> that the parser placed inside <head> is still seen first.
  service.remove(noiseElements);
  addTableRules(service);
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && Boolean(node.getAttribute('href')),
    replacement: (content, node) => {
      const href = absolute((node as HTMLElement).getAttribute('href')!, pageUrl);
      const text = content.trim();
      if (!href || href.startsWith('javascript:')) return content;
      return text ? `[${text}](${href})` : '';
    },
  });
  service.addRule('absoluteImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const alt = (element.getAttribute('alt') ?? '').trim();
      const source = element.getAttribute('src') ?? '';
      // Inline data: images can be megabytes of base64; keep only their description.
      if (!source || source.startsWith('data:')) return alt;
      const href = absolute(source, pageUrl);
      return href ? `![${alt}](${href})` : alt;
    },
  });
  const markdown = service.turndown(html).replace(/\n{3,}/g, '\n\n').trim();
  return { title, markdown };
}

function absolute(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}
