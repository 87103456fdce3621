import { memo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';

const remarkPlugins = [remarkGfm];
// Own class prefix, so the highlighting styles of the host page never clash with ours. No guessing
// of languages: it is slow on long blocks and wrong on short ones.
const rehypePlugins: Array<[typeof rehypeHighlight, Parameters<typeof rehypeHighlight>[0]]> = [[rehypeHighlight, { prefix: 'cairn-hl-', detect: false }]];

// Links from the model open in a new tab and pass no referrer; raw HTML in the text is not rendered
// (react-markdown's default), and unsafe URLs are dropped by its default urlTransform.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noreferrer noopener" />,
};

/**
 * Markdown of the answer, re-rendered as it streams. Memoized on the text: the finished blocks
 * above the one that grows are not parsed again at each delta.
 */
export const MarkdownText = memo(function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `cairn-markdown ${className}` : 'cairn-markdown'}>
      <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
