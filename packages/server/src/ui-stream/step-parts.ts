import type { UIChunk } from './ui-chunks.js';

/**
 * The open model step and its open text or reasoning part. Contiguous deltas of one kind form one
 * part; anything else the model does in between (a tool call, the other kind) closes it. Part ids
 * come from the offset of the part's first delta, so replaying the same log gives the same ids.
 */
export class StepParts {
  private stepOpen = false;
  private textId: string | undefined;
  private reasoningId: string | undefined;

  /** `start-step`, unless a step is open already (content outside a step still gets one). */
  open(): UIChunk[] {
    if (this.stepOpen) return [];
    this.stepOpen = true;
    return [{ type: 'start-step' }];
  }

  text(delta: string, offset: number): UIChunk[] {
    if (!delta) return [];
    const chunks = [...this.open(), ...this.closeReasoning()];
    if (!this.textId) {
      this.textId = `text-${offset}`;
      chunks.push({ type: 'text-start', id: this.textId });
    }
    chunks.push({ type: 'text-delta', id: this.textId, delta });
    return chunks;
  }

  reasoning(delta: string, offset: number): UIChunk[] {
    if (!delta) return [];
    const chunks = [...this.open(), ...this.closeText()];
    if (!this.reasoningId) {
      this.reasoningId = `reasoning-${offset}`;
      chunks.push({ type: 'reasoning-start', id: this.reasoningId });
    }
    chunks.push({ type: 'reasoning-delta', id: this.reasoningId, delta });
    return chunks;
  }

  closeText(): UIChunk[] {
    const id = this.textId;
    this.textId = undefined;
    return id ? [{ type: 'text-end', id }] : [];
  }

  closeReasoning(): UIChunk[] {
    const id = this.reasoningId;
    this.reasoningId = undefined;
    return id ? [{ type: 'reasoning-end', id }] : [];
  }

  closeParts(): UIChunk[] {
    return [...this.closeReasoning(), ...this.closeText()];
  }

  /** `finish-step` for the open step. Close its parts first: the client forgets open parts at a step's end. */
  finish(): UIChunk[] {
    if (!this.stepOpen) return [];
    this.stepOpen = false;
    return [{ type: 'finish-step' }];
  }
}
