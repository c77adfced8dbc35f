// Text that may hold control characters, as shown: one line of a summary, or every character that could
// drive a terminal made visible (errors in JSON notation; a reply in caret notation, line breaks kept).

// eslint-disable-next-line no-control-regex -- control characters are exactly what is matched
const CONTROL_OR_SPACE = /[\u0000-\u001f\u007f-\u009f\s]+/g;
// C0 (but tab and line feed, handled per notation), DEL, C1 and the bidi overrides and isolates.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Pure: the text on one line, control characters and runs of white space as single spaces, cut to `max`. */
export function flatten(text: string, max = 200): string {
  const flat = text.replace(CONTROL_OR_SPACE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const JSON_NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const uEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Pure: one harmless line for an error message that may echo the user's own input. */
export function escapeForLine(text: string): string {
  return text.replace(UNSAFE, (c) => JSON_NAMED[c] ?? uEscape(c));
}

function caret(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `\\u{${code.toString(16)}}`;
}

/** Pure: line breaks (CRLF as LF) and tabs stay, the rest made visible: a reply cannot clear the screen, set
 * the title, write the clipboard (OSC 52) or hide text. */
export function neutralize(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, (c) => (c === '\n' || c === '\t' ? c : caret(c)));
}

// What JSON.stringify leaves raw that a terminal may act on: DEL, the C1 range (U+009B is a one-character
// CSI) and the bidi controls. Structural JSON is ASCII, so these only ever stand inside strings.
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Pure: JSON.stringify with those written as `\uXXXX`: the same value to a JSON reader, inert on a terminal. */
export function jsonText(value: unknown, space?: number): string {
  return String(JSON.stringify(value, null, space)).replace(JSON_RAW_UNSAFE, uEscape);
}

/** What a thrown value says: an Error's message, anything else as a string. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
