// A tool call's arguments, checked by hand against what tools.ts declares: each wrong one is a usage error
// of one line that names the argument and says what it takes (an agent reads it and calls again).
import { CORE_AGENTS, sessionRefArg, UsageError, type CoreAgent, type SessionRef } from '../core/index.js';
import { isObject } from '../util/json.js';
import { isUuid } from '../util/uuid.js';
import { MAX_WAIT_SECONDS, type ToolDefinition } from './tools.js';

/** The arguments of one call, read one by one; unknown ones are refused. */
export class Arguments {
  private readonly args: Record<string, unknown>;

  constructor(raw: unknown, tool: ToolDefinition) {
    if (raw !== undefined && !isObject(raw)) throw new UsageError('the arguments must be an object');
    this.args = raw ?? {};
    const known = Object.keys(tool.inputSchema.properties);
    const unknown = Object.keys(this.args).find((k) => !known.includes(k));
    if (unknown !== undefined) {
      throw new UsageError(
        `${tool.name} takes no argument ${JSON.stringify(unknown.slice(0, 80))}`,
        `its arguments: ${known.join(', ')}`,
      );
    }
  }

  /** null counts as not given. */
  private present(name: string): unknown {
    return this.args[name] ?? undefined;
  }

  given(name: string): boolean {
    return this.present(name) !== undefined;
  }

  /** An optional argument: undefined when not given, else `ok` or a usage error saying what it must be. */
  private optional<T>(name: string, ok: (v: unknown) => boolean, what: string): T | undefined {
    const v = this.present(name);
    if (v === undefined) return undefined;
    if (!ok(v)) throw new UsageError(`${name} must be ${what}`);
    return v as T;
  }

  object(name: string): Record<string, unknown> | undefined {
    return this.optional(name, isObject, 'a JSON Schema: a JSON object');
  }

  uuid(name: string): string | undefined {
    return this.optional<string>(name, (v) => typeof v === 'string' && isUuid(v), 'a UUID')?.toLowerCase();
  }

  agent(name: string): CoreAgent | undefined {
    const known = (v: unknown) => (CORE_AGENTS as readonly unknown[]).includes(v);
    return this.optional(name, known, `one of ${CORE_AGENTS.join(', ')}`);
  }

  flag(name: string): boolean | undefined {
    return this.optional(name, (v) => typeof v === 'boolean', 'true or false');
  }

  text(name: string): string {
    const v = this.present(name);
    if (typeof v !== 'string') throw new UsageError(`${name} is required: a string`);
    if (v.trim() === '') throw new UsageError(`${name} is empty`);
    return v;
  }

  /** The `session` argument: an id, an address or "last". */
  session(): SessionRef {
    const v = this.present('session');
    if (typeof v !== 'string') {
      throw new UsageError('session is required: a session id, its address, or "last"');
    }
    return sessionRefArg(v);
  }

  /** A number from `min` to `max` (a whole one when `integer`), or `dflt` when not given. */
  number(name: string, min: number, max: number, dflt: number, integer = false): number {
    const v = this.present(name);
    if (v === undefined) return dflt;
    const ok = typeof v === 'number' && v >= min && v <= max && (!integer || Number.isInteger(v));
    if (!ok) {
      throw new UsageError(
        `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
      );
    }
    return v;
  }

  waitSeconds(dflt: number): number {
    return this.number('wait_seconds', 0, MAX_WAIT_SECONDS, dflt);
  }
}
