// Text from the service is shown on a terminal only after its control characters are made visible, so a
// reply cannot clear the screen, set the title, write the clipboard (OSC 52) or hide text. Newlines and
// tabs stay; everything else below 0x20, DEL, the C1 range and the bidi overrides become visible escapes.
// Piped output is never passed through here: it is the text as sent.

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `\\u{${code.toString(16)}}`;
}

/** Pure: the text with every character that could drive the terminal replaced by a visible form. */
export function neutralize(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}
