import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

describe('htmlToMarkdown', () => {
  it('renders tables as GFM tables, with or without a header row', () => {
    const html = `<table><thead><tr><th>Option</th><th>Default</th></tr></thead>
      <tbody><tr><td><code>maxBytes</code></td><td>5 MB | more</td></tr><tr><td>timeoutMs</td><td>30 s</td></tr></tbody></table>
      <p>between</p><table><tr><td>a</td><td>b</td></tr></table>`;
    expect(htmlToMarkdown(html, 'https://example.com/').markdown).toBe(
      [
        '| Option | Default |',
        '| --- | --- |',
        '| `maxBytes` | 5 MB \\| more |',
        '| timeoutMs | 30 s |',
        '',
        'between',
        '',
        '|   |   |',
        '| --- | --- |',
        '| a | b |',
      ].join('\n'),
    );
  });

  it('keeps the title apart, resolves relative links and drops data: images', () => {
    const page = htmlToMarkdown(
      '<html><head><title> The  page </title></head><body><p><a href="../up">up</a> <img src="data:image/png;base64,AAAA" alt="chart"> <img src="i.png" alt="icon"></p></body></html>',
      'https://example.com/docs/guide/',
    );
    expect(page).toEqual({ title: 'The page', markdown: '[up](https://example.com/docs/up) chart ![icon](https://example.com/docs/guide/i.png)' });
  });
});
