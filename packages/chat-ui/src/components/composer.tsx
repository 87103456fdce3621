import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import type { ModelListItem } from '../wire-types.js';

export const modes = ['agent', 'plan', 'ask', 'debug'] as const;

export interface ComposerProps {
  sending: boolean;
  running: boolean;
  mode: string;
  onModeChange: (mode: string) => void;
  models: ModelListItem[];
  /** '' for the agent's own model. */
  model: string;
  onModelChange: (model: string) => void;
  onSend: (text: string) => Promise<void>;
  onCancel: () => void;
}

/**
 * The message box. Enter sends, Shift+Enter starts a new line (and Enter while an input method is
 * composing is left to it). Disabled while a send is in flight; a send while a run is going queues
 * behind it on the server. Cancel shows while a run is going.
 */
export function Composer(props: ComposerProps) {
  const { sending, running, mode, onModeChange, models, model, onModelChange, onSend, onCancel } = props;
  const [text, setText] = useState('');
  const ids = { text: useId(), mode: useId(), model: useId() };
  const input = useRef<HTMLTextAreaElement>(null);

  const submit = async () => {
    const message = text.trim();
    if (!message || sending) return;
    setText('');
    await onSend(message);
    // The box was disabled while sending, which drops focus: give it back for the next message.
    requestAnimationFrame(() => input.current?.focus());
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  return (
    <form className="cairn-composer" onSubmit={onSubmit} aria-label="Send a message">
      <label htmlFor={ids.text} className="cairn-visually-hidden">
        Message
      </label>
      <textarea
        id={ids.text}
        ref={input}
        className="cairn-composer-input"
        data-testid="composer"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={sending}
        rows={3}
        placeholder="Ask the agent… (Enter sends, Shift+Enter for a new line)"
      />
      <div className="cairn-composer-bar">
        <label htmlFor={ids.mode} className="cairn-picker">
          <span>Mode</span>
          <select id={ids.mode} data-testid="mode-picker" value={mode} onChange={(event) => onModeChange(event.target.value)}>
            {(modes.includes(mode as (typeof modes)[number]) ? modes : [...modes, mode]).map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={ids.model} className="cairn-picker">
          <span>Model</span>
          <select id={ids.model} data-testid="model-picker" value={model} onChange={(event) => onModelChange(event.target.value)}>
            <option value="">Agent's model</option>
            {models.map((item) => (
              <option key={item.id} value={item.id}>
                {item.displayName || item.id}
              </option>
            ))}
            {model && !models.some((item) => item.id === model) ? <option value={model}>{model}</option> : null}
          </select>
        </label>
        <span className="cairn-composer-spacer" />
        {running ? (
          <button type="button" className="cairn-button cairn-button-danger" data-testid="cancel" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="cairn-button cairn-button-primary" data-testid="send" disabled={sending || !text.trim()}>
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
