import type { ImagePart, ToolResultOutput } from '@cairn/core/spec';

/** A tool result as text, plus any images it carried (the wire formats take those separately). */
export function toolResultText(output: ToolResultOutput): { text: string; images: Array<{ data: string; mediaType: string }> } {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return { text: output.value, images: [] };
    case 'json':
    case 'error-json':
      return { text: JSON.stringify(output.value), images: [] };
    case 'content': {
      const texts: string[] = [];
      const images: Array<{ data: string; mediaType: string }> = [];
      for (const part of output.value) {
        if (part.type === 'text') texts.push(part.text);
        else images.push({ data: part.data, mediaType: part.mediaType });
      }
      return { text: texts.join('\n'), images };
    }
  }
}

export function dataUrl(image: { data: string; mediaType: string }): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/** The `image_url` OpenAI takes for an image part: the remote URL as given, inline bytes as a data URL. */
export function imageUrl(image: ImagePart): string {
  return 'url' in image ? image.url : dataUrl(image);
}

/** Tool-call input as the JSON text the API expects; a string is the model's raw (unparsable) text. */
export function toolCallArguments(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

/** What the model reads when one of its calls got no result (the run was interrupted before it ran). */
export const unansweredToolCallText = 'This tool call was not executed (the run was interrupted before a result was recorded).';
