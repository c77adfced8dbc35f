// A parsed `<session>` reference made into a session id: `last` is looked up in the state file.
import { UsageError } from '../errors/cli-error.js';
import { readLastSession, type LastSession } from '../state/last-session.js';
import { historyName, type History } from '../state/history.js';
import type { SessionRef } from './refs.js';

export interface ResolvedSession {
  id: string;
  last?: LastSession;
}

export async function resolveSession(ref: SessionRef, history: History): Promise<ResolvedSession> {
  const { state } = history;
  if (ref.kind === 'id') return { id: ref.id };
  // A state file that cannot be written may hold an older session than the one just created or sent
  // to: posting to it would go to the wrong conversation.
  if (!state.writable()) {
    throw new UsageError(
      `"last" is not reliable: the state file ${state.path} cannot be written, so it may name an older session`,
      'give the session id, or make the state directory writable (AGENTS_STATE_DIR moves it)',
    );
  }
  const last = await readLastSession(history);
  if (last === undefined) {
    // Sessions of another service are not offered: they would be "not found" here.
    throw new UsageError(
      `no "last" session ${historyName(history)} yet`,
      'create one with agents create, or give a session id',
    );
  }
  if (ref.mustBe !== undefined && ref.mustBe !== last.id) {
    throw new UsageError(
      `"last" is session ${last.id}, not ${ref.mustBe} as the thread reference says`,
      'give the session id that the thread belongs to',
    );
  }
  return { id: last.id, last };
}
