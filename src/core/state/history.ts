// Whose history a run reads and writes: one profile on one service (base URL). A session of one service is
// "not found" on another, so `last`, `ls`, the chooser and completion never offer one of another base URL.
import { validateBaseUrl } from '../config/validators.js';
import type { StateFile } from './state-file.js';

export interface History {
  state: StateFile;
  profile: string;
  /** The base URL this run talks to (normalized); undefined when none is configured. */
  baseUrl: string | undefined;
  /** Where an entry recorded before base URLs were belongs: the profile's stored base URL, else ours. */
  legacyBaseUrl: string | undefined;
}

/** A base URL as the client uses it (validated, normalized), or undefined when it is not one. */
export function normalBaseUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return validateBaseUrl(url).value;
  } catch {
    return undefined;
  }
}

/** Whether an entry recorded with `baseUrl` (undefined: before base URLs were recorded) is of `h`. */
export function inHistory(h: Omit<History, 'state'>, baseUrl: string | undefined): boolean {
  return (baseUrl ?? h.legacyBaseUrl) === h.baseUrl;
}

/** "on https://… for profile work", for messages about an empty history. */
export function historyName(h: Pick<History, 'profile' | 'baseUrl'>): string {
  return `${h.baseUrl === undefined ? '' : `on ${h.baseUrl} `}for profile ${h.profile}`;
}
