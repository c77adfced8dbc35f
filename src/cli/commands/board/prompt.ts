// The board's one-line questions, on the chat's line editor: Enter answers, Escape or Ctrl-C asks nothing.
import { LineEditor, type Key } from '../../chat/input-line.js';

/** `text`: the answer, or what is typed so far. */
export type PromptKey = { done: 'answer' | false; text: string } | { done: 'cancel' };

export class PromptLine {
  private readonly editor = new LineEditor();

  constructor(
    readonly label: string,
    initial = '',
  ) {
    if (initial !== '') this.editor.set(initial);
  }

  line(): string {
    const g = this.editor.graphemes;
    const at = this.editor.cursor;
    return `${this.label}${g.slice(0, at).join('')}▏${g.slice(at).join('')}`;
  }

  key(str: string | undefined, key: Key | undefined): PromptKey {
    if (key?.name === 'escape' || (key?.ctrl && key.name === 'c')) return { done: 'cancel' };
    // One line: Enter answers (the editor's continued lines and history are the chat's, not a question's).
    if (key?.name === 'return' || key?.name === 'enter') return { done: 'answer', text: this.editor.text };
    this.editor.press(str, key);
    return { done: false, text: this.editor.text };
  }
}
