// The one way an API key is ever shown: enough to tell two keys apart, never enough to use one.

/** `sk-a…1234`; a key of 12 characters or fewer only its last 2 (`…yz`), of 6 or fewer nothing (`****`). */
export function maskKey(key: string): string {
  const chars = [...key];
  const n = chars.length;
  if (n <= 6) return '****';
  if (n <= 12) return `…${chars.slice(-2).join('')}`;
  // 13–19 characters: a prefix of 2–3; 20 and more: 4. At most 8 of 20 characters are shown.
  const prefix = Math.min(4, Math.floor(n / 4) - 1);
  return `${chars.slice(0, prefix).join('')}…${chars.slice(-4).join('')}`;
}

/** A Redis address with its password masked (`redis://user:****@host:6379/0`): the one way it is shown. */
export function maskUrlPassword(url: string): string {
  const u = URL.parse(url);
  if (u === null) return '****';
  if (u.password === '') return url;
  u.password = '****';
  return u.href;
}
