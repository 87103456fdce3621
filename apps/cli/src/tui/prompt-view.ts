import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import { border, fg } from './colors.js';
import { describeRequest } from '@cairn/server/workspace-permissions';
import type { Prompt } from './chat-state.js';

/**
 * The question the run waits on. The texts and keys are a contract with the terminal tests and
 * docs/terminal-ui.md: change them there too.
 */
export function PromptView({ prompt }: { prompt: Prompt }): ReactElement {
  switch (prompt.kind) {
    case 'approval': {
      const { request } = prompt;
      const title = request.kind === 'tool' ? 'Allow this call?' : 'Allow this mode switch?';
      return h(
        Box,
        { flexDirection: 'column', borderStyle: 'round', ...border('yellow'), paddingX: 1 },
        h(Text, { bold: true, ...fg('yellow') }, title),
        h(Text, null, describeRequest(request)),
        h(Text, { dimColor: true }, `why: ${request.reason}`),
        ...(request.modeSwitch?.addedRights?.length ? [h(Text, { dimColor: true, key: 'rights' }, `adds: ${request.modeSwitch.addedRights.join('; ')}`)] : []),
        h(Text, null, `[y] allow once   ${prompt.canRemember ? '[a] allow always in this workspace   ' : ''}[n] deny`),
      );
    }
    case 'plan':
      return h(
        Box,
        { borderStyle: 'round', ...border('cyan'), paddingX: 1 },
        h(Text, null, h(Text, { bold: true, ...fg('cyan') }, 'Plan proposed: '), '[y] approve and run it   [e] edit (describe changes)   [n] reject'),
      );
    case 'trust':
      return h(
        Box,
        { flexDirection: 'column', borderStyle: 'round', ...border('yellow'), paddingX: 1 },
        h(Text, null, prompt.question),
        h(Text, null, '[y] yes, trust it   [n] no'),
      );
    case 'picker':
      return h(
        Box,
        { flexDirection: 'column', borderStyle: 'round', paddingX: 1 },
        h(Text, { bold: true }, prompt.title),
        ...prompt.items.slice(0, 12).map((item, index) =>
          h(Text, { key: item.id, ...fg(index === prompt.index ? 'cyan' : undefined) }, `${index === prompt.index ? '› ' : '  '}${item.label}`, h(Text, { dimColor: true }, `  ${item.detail}`)),
        ),
        h(Text, { dimColor: true }, '↑/↓ choose · Enter resume · Esc cancel'),
      );
  }
}
