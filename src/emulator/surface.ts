// The emulator's public surface (re-exported by index.ts). Tests and the demo depend on these names.
import type { Artifact, Message, MessageType, Role } from '../core/api/types.js';
import type { DialectName } from './dialect.js';
import type { Misbehaviour } from './misbehave.js';
import type { RepeatedParams } from './validate.js';

/** An API key the emulator's gateway knows; keys of one workspace see the same sessions. */
export interface EmulatorKey {
  key: string;
  workspace: string;
  /** Known but refused: every request with it is answered 403 by the gateway. */
  forbidden?: boolean;
}

/** Every fault the emulator can inject, in the order `--help` lists them. */
export const FAULT_MODES = [
  '500',
  '502',
  '503',
  '504',
  'html-502',
  '429',
  'reset',
  'reset-after-commit',
  'truncate',
  'slow',
] as const;

export type FaultMode = (typeof FAULT_MODES)[number];

/** Which requests get a fault, and which faults. */
export interface FaultOptions {
  /** 0..1 share of requests hit. */
  rate: number;
  /** One picked at random per hit (only those that apply to the request's method). */
  modes: FaultMode[];
  /** Default both. */
  methods?: ('GET' | 'POST')[];
  /** Delay for 'slow' in ms (default 2000); not multiplied by timeScale. */
  slowMs?: number;
  /** Deterministic PRNG when given. */
  seed?: number;
}

/** How to start an emulator; every field has a default. */
export interface EmulatorOptions {
  /** 0 = free port; default 0 here (the CLI's default is 4010). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** HTTPS with this certificate chain and key (PEM), as the service; the artifact host stays plain HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Default: one documented dev key, `agents-dev-key` in workspace `dev`. */
  keys?: EmulatorKey[];
  /** Default 100 per 60000 ms per key (sliding window); false = unlimited. */
  rateLimit?: { limit: number; windowMs: number } | false;
  /** Default none. */
  faults?: FaultOptions;
  /** Multiplies every scripted delay (0.1 = ten times faster); default 1. Ignored when turns are held. */
  timeScale?: number;
  /** 'timed' (default): real timers. 'held': a turn waits until advanceTurns or endTurns moves it on. */
  turns?: 'timed' | 'held';
  /** Held turns: each request the service answers (not a fault's) moves them on by this many ms. */
  turnMsPerRequest?: number;
  /** Default 2 MiB request body; larger is 413. */
  maxBodyBytes?: number;
  /** For session_html_url; default the base URL the request came in on (live, ci-mock: https://blocks.team). */
  appUrl?: string;
  /** The document to the letter ('spec', default), the live service ('live'), or Blocks' CI mock. */
  dialect?: DialectName;
  /** How a repeated single-valued query parameter is read; default 'first' (spec), else 'all'. */
  repeatedParams?: RepeatedParams;
  /** Broken answers on purpose (misbehave.ts); default none. */
  misbehave?: Misbehaviour;
  /** How long a presigned artifact link stays valid, in ms (default 6 days, as the service's). */
  artifactTtlMs?: number;
  /** Told, a line each, of a directive the dialect cannot honour (`agents emulator`: on stderr). */
  onNotice?: (line: string) => void;
}

/** An artifact to attach with the addArtifact test hook. */
export interface AddArtifactInput {
  kind: 'plan' | 'file';
  content: string | Buffer;
  fileName?: string;
  mimeType?: string;
  /** For a plan: the plan it is an iteration of (default: the session's latest plan, or a new one). */
  planId?: string;
  /** For a plan: start a new plan instead of adding an iteration. */
  newPlan?: boolean;
}

/** Counters since start (or the last resetStats). */
export const emptyStats = () => ({
  requests: 0,
  /** Per route, e.g. 'POST /sessions', 'GET /sessions/:id/messages'; unmatched paths as 'GET (unknown)'. */
  byRoute: {} as Record<string, number>,
  sessionsCreated: 0,
  followUps: 0,
  /** Requests the rate limiter refused (injected '429' faults count under faultsInjected only). */
  rejected429: 0,
  faultsInjected: 0,
});

export type EmulatorStats = ReturnType<typeof emptyStats>;

/** What addMessage needs; everything else is filled in (id, chat_id, task_id, ts, created_at…). */
export type AddMessageInput = Partial<Message> & {
  chat_thread_id: string;
  role: Role;
  type: MessageType;
  message: string;
};

export interface RunningEmulator {
  /** Base URL without /rest/v1, e.g. http://127.0.0.1:43123 (https:// with the tls option). */
  url: string;
  port: number;
  keys: EmulatorKey[];
  /** Stops timers, closes sockets, resolves when down. */
  close(): Promise<void>;
  /** A restart's first half: the listener and its connections go; sessions, turns and stats stay. */
  stopListening(): Promise<void>;
  /** A restart's second half: listens again on the same port; resolves once it does. */
  listenAgain(): Promise<void>;
  /** Whether the listener is there (false between stopListening and listenAgain). */
  readonly listening: boolean;
  setFaults(f: FaultOptions | undefined): void;
  /** How a repeated single-valued parameter is read from now on (see EmulatorOptions.repeatedParams). */
  setRepeatedParams(mode: RepeatedParams): void;
  /** The broken answers given from now on; undefined for none. */
  setMisbehaviour(m: Misbehaviour | undefined): void;
  /** Held turns: moves every turn on by `ms` (unscaled), storing what falls due; returns the steps run. */
  advanceTurns(ms: number): number;
  /** Held turns: plays every turn (or that of `sessionId`) to its end; returns the steps run. */
  endTurns(sessionId?: string): number;
  /** Held turns: how many steps of turns in progress are waiting (0 when turns are timed). */
  heldTurnEvents(): number;
  stats(): EmulatorStats;
  resetStats(): void;
  /** Test hook: store a message directly (for exact-timing tests of pollers). Returns the stored message. */
  addMessage(sessionId: string, m: AddMessageInput): Message;
  /** Test hook: the stored messages of a session (including user messages), in storage order. */
  messages(sessionId: string): Message[];
  /** Test hook: attach an artifact to a session (as an agent's turn would); returns its record. */
  addArtifact(sessionId: string, a: AddArtifactInput): Artifact;
  /** Test hook: add a pull request to a session. */
  addPullRequest(sessionId: string, url: string, status?: string): void;
  /** Base URL of the host that serves presigned artifact downloads (another origin than `url`). */
  artifactsUrl: string;
  /** Requests the artifact host received, with whether they carried an Authorization header. */
  artifactRequests(): { path: string; authorization: boolean }[];
}
