// The API key must never reach a log, a trace or an error message. Everything the HTTP layer writes out
// passes through here.

/** Shortest key that is replaced wherever it appears; a shorter one would mangle ordinary text. */
const MIN_KEY_LENGTH = 4;

/** Replaces the key (also URL-encoded), and whatever follows `ApiKey ` (an Authorization header echoed back), with `***`. */
export function redact(text: string, key?: string): string {
  let out = text;
  if (key !== undefined && key.length >= MIN_KEY_LENGTH) {
    out = out.split(key).join('***');
    const encoded = encodeURIComponent(key);
    if (encoded !== key) out = out.split(encoded).join('***');
  }
  return out.replace(/(ApiKey)(\s+|%20|\+)[^\s"',;&]+/gi, '$1$2***');
}
