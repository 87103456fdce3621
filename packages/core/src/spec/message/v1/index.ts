export type { SDKImage, SDKImageDimension, SDKUserMessage } from './user-message.js';
