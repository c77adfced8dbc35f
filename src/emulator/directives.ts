// The `[[name:value]]` directives a user message can carry to script the agent's turn (the table:
// directive-table.ts, shown by `agents emulator --help`). Pure: text in, script out.

/** How one agent turn plays out with no directive (the table: directive-table.ts). Times in unscaled ms. */
export const DEFAULT_SCRIPT = {
  thinkMs: 300,
  steps: 2,
  gapMs: 200,
  /** When set, the final message lands this long after the user message. */
  turnMs: undefined as number | undefined,
  never: false,
  /** When set, this many intermediate messages are stored at one instant (replaces steps). */
  burst: undefined as number | undefined,
  sameTs: false,
  /** Every message of the turn stamped at the user message's instant: one created_at, one whole-second ts. */
  instant: false,
  tsLagS: 0,
  tsShuffle: false,
  size: undefined as number | undefined,
  echo: false,
  reply: undefined as string | undefined,
  orphan: false,
  plan: undefined as string | undefined,
  pr: undefined as string | undefined,
  notice: undefined as string | undefined,
  /** The session's final replies from this turn on, one per turn (the last one for every later turn). */
  replies: undefined as string[] | undefined,
};

export type TurnScript = typeof DEFAULT_SCRIPT;

// Caps keep a hostile message from scheduling a million timers or allocating gigabytes.
const MAX_MS = 24 * 60 * 60 * 1000;
const MAX_STEPS = 1000;
const MAX_SIZE = 16 * 1024 * 1024;

const DIRECTIVE = /\[\[([a-z][a-z-]*)(?::([^\]]*))?\]\]/g;

/** The text with every `[[…]]` directive removed (nothing else touched: no trimming). */
export function stripDirectives(text: string): string {
  return text.replace(DIRECTIVE, '');
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
const CONTROL_OR_SPACE = /[\u0000-\u001f\u007f\s]+/g;

/** The text on one line (control characters and runs of white space become one space), cut to `max`. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(CONTROL_OR_SPACE, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function count(value: string | undefined, max: number): number | undefined {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return undefined;
  return Math.min(Number(value), max);
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // a stray % is kept as typed rather than failing the turn
  }
}

/** Reads the directives of a user message. Unknown directives and bad values are ignored. */
export function parseDirectives(text: string): TurnScript {
  const s: TurnScript = { ...DEFAULT_SCRIPT };
  // What one directive sets; a field left undefined (a bad or missing value) keeps what it was.
  const read = (name: string | undefined, value: string | undefined): Partial<TurnScript> => {
    const textValue = value === undefined ? undefined : decode(value);
    switch (name) {
      case 'think':
        return { thinkMs: count(value, MAX_MS) };
      case 'steps':
        return { steps: count(value, MAX_STEPS) };
      case 'gap':
        return { gapMs: count(value, MAX_MS) };
      case 'turn':
        return { turnMs: count(value, MAX_MS) };
      case 'burst':
        return { burst: count(value, MAX_STEPS) };
      case 'ts-lag':
        return { tsLagS: count(value, MAX_MS) };
      case 'size':
        return { size: count(value, MAX_SIZE) };
      case 'reply':
        return { reply: textValue };
      case 'never':
        return { never: true };
      case 'same-ts':
        return { sameTs: true };
      case 'instant':
        return { instant: true };
      case 'ts-shuffle':
        return { tsShuffle: true };
      case 'echo':
        return { echo: true };
      case 'orphan':
        return { orphan: true };
      case 'plan':
        return { plan: textValue };
      case 'pr':
        return { pr: textValue };
      case 'notice':
        return { notice: textValue };
      case 'replies':
        // `|` between replies (`%7C` for one inside a reply), each URL-decoded.
        return { replies: value?.split('|').map(decode) };
      default:
        return {}; // unknown directives are ignored on purpose
    }
  };
  for (const [, name, value] of text.matchAll(DIRECTIVE)) {
    Object.assign(
      s,
      Object.fromEntries(Object.entries(read(name, value)).filter(([, v]) => v !== undefined)),
    );
  }
  return s;
}

/** One point of a turn's schedule: at `atMs` (unscaled, from the user message), store these messages. */
export interface PlannedEvent {
  atMs: number;
  /** 'steps' stores `count` intermediates one after another in one go (a burst when count > 1). */
  kind: 'steps' | 'final';
  /** Index of the first intermediate of this event (0-based), for alternating message / tool_call. */
  first: number;
  count: number;
}

/** The schedule of a turn, in time order. Pure, so the timing rules are testable without timers. */
export function planTurn(s: TurnScript): PlannedEvent[] {
  const events: PlannedEvent[] = [];
  if (s.burst !== undefined) {
    const burstAt = s.turnMs !== undefined ? Math.max(0, s.turnMs - s.gapMs) : s.thinkMs;
    if (s.burst > 0) events.push({ atMs: burstAt, kind: 'steps', first: 0, count: s.burst });
    if (!s.never) events.push({ atMs: s.turnMs ?? burstAt + s.gapMs, kind: 'final', first: 0, count: 1 });
    return events;
  }
  for (let i = 0; i < s.steps; i += 1) {
    // With [[turn]], intermediates are spread evenly before the final; otherwise think, then one per gap.
    const atMs =
      s.turnMs !== undefined ? Math.round((s.turnMs * (i + 1)) / (s.steps + 1)) : s.thinkMs + i * s.gapMs;
    events.push({ atMs, kind: 'steps', first: i, count: 1 });
  }
  if (!s.never) {
    events.push({ atMs: s.turnMs ?? s.thinkMs + s.steps * s.gapMs, kind: 'final', first: 0, count: 1 });
  }
  return events;
}
