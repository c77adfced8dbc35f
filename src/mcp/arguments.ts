// A tool call's arguments, checked by hand against what tools.ts declares: each wrong one is a usage error
// of one line that names the argument and says what it takes (an agent reads it and calls again).
import {
  CORE_AGENTS,
  notASession,
  parseSessionRef,
  UsageError,
  type CoreAgent,
  type SessionRef,
} from '../core/index.js';
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

  private present(name: string): unknown {
    const v = this.args[name];
    return v === null ? undefined : v;
  }

  /** Whether the argument was given (null counts as not given). */
  given(name: string): boolean {
    return this.present(name) !== undefined;
  }

  /** An optional JSON object (a JSON Schema). */
  object(name: string): Record<string, unknown> | undefined {
    const v = this.present(name);
    if (v === undefined) return undefined;
    if (!isObject(v)) throw new UsageError(`${name} must be a JSON Schema: a JSON object`);
    return v;
  }

  /** A non-empty string (a message). */
  text(name: string): string {
    const v = this.present(name);
    if (typeof v !== 'string') throw new UsageError(`${name} is required: a string`);
    if (v.trim() === '') throw new UsageError(`${name} is empty`);
    return v;
  }

  /** A session reference: an id, an address or "last". */
  session(name = 'session'): SessionRef {
    const v = this.present(name);
    if (typeof v !== 'string') {
      throw new UsageError(`${name} is required: a session id, its address, or "last"`);
    }
    const ref = parseSessionRef(v);
    if (ref === undefined) throw notASession(v);
    return ref;
  }

  /** An optional UUID. */
  uuid(name: string): string | undefined {
    const v = this.present(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !isUuid(v)) throw new UsageError(`${name} must be a UUID`);
    return v.toLowerCase();
  }

  /** An optional built-in agent name. */
  agent(name: string): CoreAgent | undefined {
    const v = this.present(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !(CORE_AGENTS as readonly string[]).includes(v)) {
      throw new UsageError(`${name} must be one of ${CORE_AGENTS.join(', ')}`);
    }
    return v as CoreAgent;
  }

  /** An optional boolean. */
  flag(name: string): boolean | undefined {
    const v = this.present(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw new UsageError(`${name} must be true or false`);
    return v;
  }

  /** A number from `min` to `max` (a whole one when `integer`), or `dflt` when not given. */
  number(name: string, min: number, max: number, dflt: number, integer = false): number {
    const v = this.present(name);
    if (v === undefined) return dflt;
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < min ||
      v > max ||
      (integer && !Number.isInteger(v))
    ) {
      throw new UsageError(
        `${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`,
      );
    }
    return v;
  }

  /** wait_seconds: 0 to MAX_WAIT_SECONDS. */
  waitSeconds(dflt: number): number {
    return this.number('wait_seconds', 0, MAX_WAIT_SECONDS, dflt);
  }
}
