// `<session>` arguments: a UUID, a dashboard address (…/app/sessions/<uuid>), or `last`.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pure: whether a string is a UUID (any version, as the API's ids are). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A parsed `<session>` argument. */
export type SessionRef = { kind: 'id'; id: string } | { kind: 'last' };

/** Pure: the reference, or undefined when the text is none of the three accepted forms. */
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
  const match = /\/app\/sessions\/([^/]+)\/?$/.exec(url.pathname);
  const id = match?.[1];
  if (id === undefined || !isUuid(id)) return undefined;
  return { kind: 'id', id: id.toLowerCase() };
}
