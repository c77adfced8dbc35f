// Sizes as people write them: `32MiB`, `512KiB`, `1GiB`, `20MB`, or plain bytes; each unit as it says.
const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** Pure: the number of bytes `text` names, or undefined when it names none (or a size below one byte). */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = UNITS[(match[2] ?? '').toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(match[1]) * unit);
  return bytes >= 1 && Number.isSafeInteger(bytes) ? bytes : undefined;
}
