import { currentUserInfo, renderUserInfo, renderUserQuery } from '../context/user-context.js';
import { systemReminder } from '../context/system-prompt.js';
import type { ImagePart, UserModelMessage } from '../spec/language-model/v1/index.js';
import type { SDKImage, SDKImageDimension } from '../spec/message/v1/index.js';
import type { ModeDefinition } from '../spec/mode/v1/index.js';
import { imageMediaTypeOfUrl } from './image-data.js';
import { modeReminderText } from './mode-switch.js';
import { projectLayoutCached } from './workspace-scan-cache.js';

/**
 * What a user sends: the documented `SDKUserMessage` (text, images as `{ url }` or
 * `{ data, mimeType }`), with Cairn's earlier `{ data, mediaType }` images still accepted.
 */
export interface UserMessage {
  text: string;
  images?: Array<SDKImage | { data: string; mediaType: string; dimension?: SDKImageDimension }>;
}

/**
 * The run's user message. The first message of a conversation carries `<user_info>` and
 * `<project_layout>`; every one carries `<user_query>`; a mode that differs from the conversation's
 * current one adds its instructions in a `<system_reminder>` (kept in history, so the prefix of
 * later requests stays byte-identical).
 */
export async function buildUserMessage(input: {
  message: UserMessage;
  cwd: string;
  firstInConversation: boolean;
  mode: ModeDefinition;
  modeChanged: boolean;
  stepReminder?: string;
  /** Further dynamic instructions for this message (rules that apply, plan approval), already wrapped. */
  reminders?: string[];
}): Promise<UserModelMessage> {
  const parts: string[] = [];
  if (input.firstInConversation) {
    parts.push(renderUserInfo(currentUserInfo(input.cwd)));
    parts.push(await projectLayoutCached(input.cwd));
  }
  parts.push(renderUserQuery(input.message.text));
  if (input.modeChanged && (input.mode.promptBlocks.length > 0 || !input.firstInConversation || input.mode.id !== 'agent')) parts.push(modeReminderText(input.mode));
  const reminder = typeof input.mode.reminder === 'string' ? input.mode.reminder : undefined;
  if (reminder) parts.push(systemReminder(reminder));
  if (input.stepReminder) parts.push(systemReminder(input.stepReminder));
  for (const reminder of input.reminders ?? []) parts.push(reminder);
  return {
    role: 'user',
    content: [{ type: 'text', text: parts.join('\n\n') }, ...(input.message.images ?? []).map(imagePart)],
  };
}

/** A checked image (see normalizeUserMessage) as the model's image part; `dimension` is informational and stays behind. */
function imagePart(image: NonNullable<UserMessage['images']>[number]): ImagePart {
  if ('url' in image) {
    const mediaType = imageMediaTypeOfUrl(image.url);
    return { type: 'image', url: image.url, ...(mediaType ? { mediaType } : {}) };
  }
  return { type: 'image', data: image.data, mediaType: 'mimeType' in image ? image.mimeType : image.mediaType };
}
