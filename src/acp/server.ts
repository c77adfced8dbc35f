// `agents acp`: the Agent Client Protocol over stdio with the official SDK, imported by the acp command
// alone. stdout carries the protocol alone, logs go to stderr; it ends when stdin closes. Each panel session
// is a PanelSession over one Blocks session.
import { randomUUID } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import {
  PROTOCOL_VERSION,
  RequestError,
  agent,
  ndJsonStream,
  type AgentConnection,
  type AuthMethod,
  type InitializeResponse,
  type SessionConfigOption,
} from '@agentclientprotocol/sdk';
import {
  CliError,
  CORE_AGENTS,
  ExitCode,
  readKnownSessions,
  redact,
  resolveSession,
  secretOf,
  sessionRefArg,
  toCliError,
  type CoreAgent,
  type Host,
} from '../core/index.js';
import type { Agents } from '../sdk/index.js';
import { VERSION } from '../util/version.js';
import { PanelSession } from './session.js';
import { promptText } from './updates.js';

/** `agents acp`'s flags: --agent, --agent-id (no choice in the panel then), --send-cwd, --timeout. */
export interface AcpOptions {
  agent?: CoreAgent;
  agentId?: string;
  sendCwd?: boolean;
  timeoutMs?: number;
}

/** The one auth method, named when no key is configured: the CLI's own login. */
const LOGIN: AuthMethod = {
  id: 'agents-login',
  name: 'agents login',
  description:
    'Run `agents login` in a terminal (or set AGENTS_API_KEY in the environment the editor starts `agents acp` with), then start a new thread.',
};

/** ACP's codes: auth required, resource not found, invalid params (else internal error). */
const CODES: Partial<Record<number, number>> = {
  [ExitCode.AUTH]: -32000,
  [ExitCode.NOT_FOUND]: -32002,
  [ExitCode.USAGE]: -32602,
};

/** Anything thrown as the ACP error the editor shows: the CLI's line, hint and exit code, never the key. */
function acpError(err: unknown, secret: string | undefined): RequestError {
  if (err instanceof RequestError) return err;
  const e = toCliError(err);
  const message = redact(e.message.split('\n')[0] ?? '', secret);
  const hint = e.hint === undefined ? undefined : redact(e.hint, secret);
  const text = hint === undefined ? message : `${message} (hint: ${hint})`;
  return new RequestError(CODES[e.exitCode] ?? -32603, text, { hint: hint ?? null, exitCode: e.exitCode });
}

/** The config option that picks the agent of a new session, before its first prompt. */
function agentOption(current: string): SessionConfigOption[] {
  return [
    {
      id: 'agent',
      name: 'Agent',
      description: 'The Blocks agent that works on this session (chosen before the first prompt).',
      type: 'select',
      currentValue: current,
      options: CORE_AGENTS.map((a) => ({ value: a, name: a })),
    },
  ];
}

class AcpServer {
  private readonly sessions = new Map<string, PanelSession>();
  connection: AgentConnection | undefined;
  /** Aborted when the editor leaves (stdin closed): nobody is there to hear any answer any more. */
  private readonly left = new AbortController();
  /** Every request's stop, the run's or the editor leaving: a create then would be a session nobody asked to
   * see, and a read or a 429's backoff in flight ends at once, so the process exits. */
  readonly signal: AbortSignal;

  constructor(
    private readonly host: Host<Agents>,
    private readonly o: AcpOptions,
  ) {
    this.signal = AbortSignal.any([host.signal, this.left.signal]);
  }

  /** Whether a key is configured (flag, environment or profile); a bad configuration says so when used. */
  private async hasKey(): Promise<boolean> {
    return (await this.host.apiKey().catch(() => 'unreadable')) !== undefined;
  }

  /** Runs `body`, its failure the ACP error the editor shows (the key, when readable, blanked out). */
  async guard<T>(body: () => T | Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (err) {
      const e = acpError(err, await secretOf(this.host));
      this.host.log.debug(`agents acp: ${e.message}`);
      throw e;
    }
  }

  async initialize(clientVersion: number): Promise<InitializeResponse> {
    return {
      protocolVersion: Math.min(clientVersion, PROTOCOL_VERSION),
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {} },
      },
      authMethods: (await this.hasKey()) ? [] : [LOGIN],
      agentInfo: { name: 'agents', title: 'Blocks', version: VERSION },
    };
  }

  /** A key is configured, or the auth-required error with the CLI's line and hint (from the settings). */
  async requireKey(): Promise<void> {
    if (await this.hasKey()) return;
    try {
      await this.host.agents();
    } catch (err) {
      // With no key, `agents login` is the cure whatever else is missing (a fresh machine has no base URL).
      const e = toCliError(err);
      throw new CliError(e.message, { exitCode: ExitCode.AUTH, hint: e.hint, cause: err });
    }
  }

  private panel(id: string, agentOf: PanelSession['agent'], cwd: string): PanelSession {
    const panel = new PanelSession(
      {
        host: this.host,
        signal: this.signal,
        notify: (update) => this.connection!.client.notify('session/update', { sessionId: id, update }),
        cwd: this.o.sendCwd ? cwd : undefined,
        timeoutMs: this.o.timeoutMs,
      },
      agentOf,
    );
    this.sessions.set(id, panel);
    return panel;
  }

  async newSession(cwd: string) {
    await this.requireKey();
    const id = randomUUID();
    if (this.o.agentId !== undefined) {
      this.panel(id, { agent_id: this.o.agentId }, cwd);
      return { sessionId: id };
    }
    const name = this.o.agent ?? (await this.host.defaultAgent()) ?? 'claude';
    this.panel(id, { agent_name: name }, cwd);
    return { sessionId: id, configOptions: agentOption(name) };
  }

  setAgent(sessionId: string, configId: string, value: unknown) {
    const panel = this.known(sessionId);
    if (configId !== 'agent' || !(CORE_AGENTS as readonly unknown[]).includes(value)) {
      throw RequestError.invalidParams({ configId }, `the option is agent, one of ${CORE_AGENTS.join(', ')}`);
    }
    if (panel.blocksId !== undefined || !('agent_name' in panel.agent)) {
      throw RequestError.invalidParams(
        { configId },
        'the agent is chosen before the first prompt: start a new thread for another agent',
      );
    }
    panel.agent = { agent_name: value as CoreAgent };
    return { configOptions: agentOption(value as CoreAgent) };
  }

  async load(sessionId: string, cwd: string): Promise<void> {
    await this.requireKey();
    const mine = this.sessions.get(sessionId)?.blocksId;
    const blocksId = mine ?? (await resolveSession(sessionRefArg(sessionId), await this.host.history())).id;
    const view = await (await this.host.agents()).show(blocksId, { tools: true, signal: this.signal });
    this.sessions.get(sessionId)?.close();
    // The session has its agent: the selection is never used (a loaded panel only follows up).
    await this.panel(sessionId, {}, cwd).load(view);
  }

  async list(cwd: string | null | undefined) {
    const dir = cwd ?? this.host.homedir;
    const known = await readKnownSessions(await this.host.history());
    return {
      sessions: known.map((s) => ({
        sessionId: s.id,
        cwd: dir,
        title: s.title ?? null,
        updatedAt: s.usedAt || null,
      })),
    };
  }

  known(sessionId: string): PanelSession {
    const panel = this.sessions.get(sessionId);
    if (panel === undefined) throw RequestError.resourceNotFound(sessionId);
    return panel;
  }

  /** The editor left: every prompt stops, and every request in flight or not yet sent ends. */
  close(): void {
    this.left.abort('the editor closed the connection');
    for (const panel of this.sessions.values()) panel.close();
  }
}

/** Serves the protocol on the run's stdin and stdout until stdin closes or the run is stopped. */
export async function serve(host: Host<Agents>, o: AcpOptions): Promise<void> {
  const s = new AcpServer(host, o);
  const app = agent({ name: 'agents' })
    .onRequest('initialize', ({ params }) => s.guard(() => s.initialize(params.protocolVersion)))
    .onRequest('authenticate', () => s.guard(() => s.requireKey().then(() => ({}))))
    .onRequest('session/new', ({ params }) => s.guard(() => s.newSession(params.cwd)))
    .onRequest('session/load', ({ params }) =>
      s.guard(() => s.load(params.sessionId, params.cwd).then(() => ({}))),
    )
    .onRequest('session/list', ({ params }) => s.guard(() => s.list(params.cwd)))
    .onRequest('session/set_config_option', ({ params }) =>
      s.guard(() => s.setAgent(params.sessionId, params.configId, params.value)),
    )
    .onRequest('session/prompt', ({ params }) =>
      s.guard(async () => {
        const panel = s.known(params.sessionId);
        let text: string;
        try {
          text = promptText(params.prompt);
        } catch (err) {
          throw RequestError.invalidParams(undefined, (err as Error).message);
        }
        return { stopReason: await panel.prompt(text) };
      }),
    )
    .onNotification('session/cancel', ({ params }) => {
      s.known(params.sessionId).cancel();
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(host.stdout as unknown as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(host.stdin as unknown as Readable) as ReadableStream<Uint8Array>,
    ),
  );
  s.connection = connection;
  const end = () => connection.close();
  if (host.signal.aborted) end();
  else host.signal.addEventListener('abort', end, { once: true });
  try {
    await connection.closed;
  } finally {
    host.signal.removeEventListener('abort', end);
    s.close();
  }
}
