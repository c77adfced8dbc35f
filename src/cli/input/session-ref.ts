// `<session>` arguments: a UUID, any http(s) address whose path holds /sessions/<uuid> (the dashboard's
// …/app/sessions/<id> or …/app/<workspace>/sessions/<id>, an API address), or `last`. Parsing is pure and
// runs while the arguments are parsed, so a bad reference is a usage error before anything loads or is sent.
import { UsageError } from '../../core/errors/cli-error.js';
import { isUuid } from '../../util/uuid.js';

/**
 * A parsed `<session>` argument. `mustBe`: `last` combined with `--thread <session>/<thread>`, whose
 * session part it must resolve to.
 */
export type SessionRef = { kind: 'id'; id: string } | { kind: 'last'; mustBe?: string };

/** Pure: the reference, or undefined when the text is none of the accepted forms. */
export function parseSessionRef(input: string): SessionRef | undefined {
  const text = input.trim();
  if (text === 'last') return { kind: 'last' };
  if (isUuid(text)) return { kind: 'id', id: text.toLowerCase() };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // The segment after any `sessions` segment (a workspace may itself be called "sessions").
  const segments = url.pathname.split('/');
  const id = segments.find((s, i) => i > 0 && segments[i - 1] === 'sessions' && isUuid(s));
  if (id === undefined) return undefined;
  return { kind: 'id', id: id.toLowerCase() };
}

/** The usage error for text that is no session reference. */
export function notASession(text: string): UsageError {
  const shown = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return new UsageError(
    `not a session: ${JSON.stringify(shown)}`,
    'give a session id (UUID), its address (…/sessions/<id>), or "last"',
  );
}

/** Parses or throws the usage error; for commander's argument parsers. */
export function sessionRefArg(text: string): SessionRef {
  const ref = parseSessionRef(text);
  if (ref === undefined) throw notASession(text);
  return ref;
}
