// An MCP client as a local agent runs one: the SDK's own Client over stdio, spawning the built binary's
// `agents mcp` with the environment given; its stderr collected, so a test can read the server's logs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
  const client = new Client({ name: 'agents-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    env,
    stderr: () => stderr,
    call: async (name, a = {}) =>
      (await client.callTool({ name, arguments: a }, undefined, { timeout: 600_000 })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a result's first content item. */
export function textOf(r: CallToolResult): string {
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
}
