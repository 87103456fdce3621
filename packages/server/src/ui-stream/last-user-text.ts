import { CairnError } from '@cairn/core';
import { z } from 'zod';

// The body `useChat` (DefaultChatTransport) posts: `{ id, messages, trigger, messageId }`. Only what
// the server reads is checked; everything else a client adds passes through unread.
const partSchema = z.looseObject({ type: z.string() });
const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const filePartSchema = z.looseObject({ type: z.literal('file'), mediaType: z.string(), url: z.string(), filename: z.string().optional() });
const messageSchema = z.looseObject({ id: z.string().optional(), role: z.enum(['system', 'user', 'assistant']), parts: z.array(partSchema) });
const chatBodySchema = z.looseObject({
  id: z.string().optional(),
  messages: z.array(messageSchema),
  trigger: z.enum(['submit-message', 'regenerate-message']).optional(),
  messageId: z.string().optional(),
});

export interface ChatImage {
  /** Base64, without the `data:` prefix. */
  data: string;
  mimeType: string;
}

/** The new run's message: the last user message of the chat, as `agent.send()` takes it. */
export interface ChatUserMessage {
  /** The chat's id (`useChat`'s `id`), when the body has one. */
  chatId?: string;
  trigger?: 'submit-message' | 'regenerate-message';
  text: string;
  images: ChatImage[];
}

const example = `{ "id": "chat-1", "messages": [{ "id": "m1", "role": "user", "parts": [{ "type": "text", "text": "Hello" }] }] }`;

/** A chat request the server cannot run: the status and code say "fix the request", the message says how. */
const invalidChat = (problem: string) => new CairnError(`${problem} Send useChat's body, e.g. ${example}.`, { code: 'invalid_chat_request', status: 400 });

/** The last user message of a `useChat` request body: its text parts joined, its image files decoded. */
export function lastUserText(body: unknown): ChatUserMessage {
  const parsed = chatBodySchema.safeParse(body);
  if (!parsed.success) throw invalidChat(`The chat request is not a useChat body (${firstIssue(parsed.error)}).`);
  const { id, trigger, messages } = parsed.data;
  const message = messages.findLast((candidate) => candidate.role === 'user');
  if (!message) throw invalidChat('The chat request has no user message.');
  const text = message.parts
    .flatMap((part) => (part.type === 'text' ? [textPartSchema.parse(part).text] : []))
    .join('\n\n');
  const images = message.parts.flatMap((part) => (part.type === 'file' ? [imageOf(part)] : []));
  if (!text.trim() && images.length === 0) throw invalidChat('The last user message has no text: give it a { "type": "text", "text": "..." } part (or an image file part).');
  return { ...(id ? { chatId: id } : {}), ...(trigger ? { trigger } : {}), text, images };
}

function imageOf(part: unknown): ChatImage {
  const file = filePartSchema.safeParse(part);
  if (!file.success) throw invalidChat(`A file part of the last user message is malformed (${firstIssue(file.error)}): it needs "mediaType" and "url".`);
  const { mediaType, url } = file.data;
  if (!mediaType.startsWith('image/')) throw invalidChat(`Only image files can be attached (this one is ${mediaType}).`);
  // Inline data only: the server does not fetch addresses a browser gives it.
  const data = /^data:[^,]*;base64,(.*)$/s.exec(url)?.[1];
  if (!data) throw invalidChat(`Attach images as base64 data URLs ("data:${mediaType};base64,..."), as useChat does for files the user picks.`);
  return { data, mimeType: mediaType };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
