// The one UUID pattern: the API's ids are UUIDs of any version, in any case.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pure: whether a string is a UUID. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
