// An MCP client as a local agent runs one: the SDK's own Client over stdio, spawning the built binary's
// `agents mcp` with the environment given; its stderr collected, so a test can read the server's logs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import type { Tuning } from '../../src/core/io/io.js';
import { runPiped } from './main.js';
import { BIN, ROOT } from './run-cli.js';

/** A connected client, the server's stderr so far, and a way to end both. */
export interface McpRun {
  client: Client;
  /** The environment the server runs in. */
  env: NodeJS.ProcessEnv;
  stderr: () => string;
  /**
   * Calls a tool, the result typed as the tools/call result it is. No time-out of the client's own (its
   * default is 60 s): the test's own guards bound a call.
   */
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

/** Starts `agents mcp …args` and connects the SDK's client to it. */
export async function mcpClient(env: NodeJS.ProcessEnv, args: string[] = []): Promise<McpRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: env as Record<string, string>,
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return connected(transport, env, () => stderr);
}

/** The SDK's client connected over `transport`, as a test holds it; `close` ends the client, then `done`. */
async function connected(
  transport: Transport,
  env: NodeJS.ProcessEnv,
  stderr: () => string,
  done?: Promise<unknown>,
): Promise<McpRun> {
  const client = new Client({ name: 'agents-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    env,
    stderr,
    call: async (name, a = {}) =>
      (await client.callTool({ name, arguments: a }, undefined, { timeout: 600_000 })) as CallToolResult,
    close: async () => {
      await client.close();
      await done;
    },
  };
}

/** The text of a result's first content item. */
export function textOf(r: CallToolResult): string {
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** The client's end of a pair of streams: what the SDK's stdio transport does over a child's pipes. */
class StreamTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly from: Readable,
    private readonly to: Writable,
  ) {}

  start(): Promise<void> {
    this.from.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
    this.from.on('end', () => this.onclose?.());
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.to.write(serializeMessage(message));
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.to.end();
    return Promise.resolve();
  }
}

/**
 * `agents mcp` run in this process through main(argv, io), with the SDK's Client on its stdin and stdout:
 * for a test that needs the run's tuning (a budget window of milliseconds instead of a minute).
 */
export async function mcpInProcess(
  env: NodeJS.ProcessEnv,
  tuning: Tuning,
): Promise<McpRun & { done: Promise<number> }> {
  const { stdin, stdout, stderr, done } = runPiped(['mcp'], env, tuning);
  return { ...(await connected(new StreamTransport(stdout, stdin), env, stderr, done)), done };
}
