// Turns a `<session>` argument into a session id, before any request is sent.
import { UsageError } from '../errors.js';
import { parseSessionRef } from '../util/session-ref.js';
import { readLastSession, type LastSession } from '../state/last-session.js';

/** A resolved session: its id, and the thread remembered with it when it came from `last`. */
export interface ResolvedSession {
  id: string;
  last?: LastSession;
}

export function resolveSessionRef(text: string, profile: string, env: NodeJS.ProcessEnv): ResolvedSession {
  const ref = parseSessionRef(text);
  if (ref === undefined) {
    throw new UsageError(
      `not a session: ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}`,
      'give a session id (UUID), a dashboard address (…/app/sessions/<id>), or "last"',
    );
  }
  if (ref.kind === 'id') return { id: ref.id };
  const last = readLastSession(profile, env);
  if (last === undefined) {
    throw new UsageError(
      `no "last" session for profile ${profile} yet`,
      'create one with agents create, or give a session id',
    );
  }
  return { id: last.id, last };
}
