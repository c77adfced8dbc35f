// `agents mcp`: the Model Context Protocol over stdio with the official SDK, imported by the mcp command
// alone. stdout carries the protocol's frames alone, logs go to stderr; when stdin closes the waits in
// flight stop, and the sessions they waited on go on.
import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../util/version.js';
import { escapeForLine } from '../util/text.js';
import { Arguments } from './arguments.js';
import { redact, secretOf, toCliError, type Host } from '../core/index.js';
import type { Agents } from '../sdk/index.js';
import {
  createSessionTool,
  listSessions,
  sendMessageTool,
  showSession,
  waitForReply,
  type Tool,
} from './calls.js';
import type { ToolCallContext } from './turn-result.js';
import { servedTools, type ToolDefinition, type ToolName } from './tools.js';

const BODIES: Record<ToolName, Tool> = {
  create_session: createSessionTool,
  send_message: sendMessageTool,
  wait_for_reply: waitForReply,
  show_session: showSession,
  list_sessions: listSessions,
};

const INSTRUCTIONS =
  'Blocks agent sessions: hand a task to a cloud agent (create_session), follow up (send_message), wait for its reply and pull requests (wait_for_reply, which returns status "running" when its time runs out: call it again), read a session (show_session) or list the ones started here (list_sessions). Give output_schema (a JSON Schema) to get the answer as JSON that matches it (structured_output).';

/** One tools/call. Any failure is a result with isError and one line `error: …; hint: …` an agent acts on. */
async function callTool(
  host: Host<Agents>,
  tools: readonly ToolDefinition[],
  name: string,
  raw: unknown,
  call: ToolCallContext,
) {
  const tool = tools.find((t) => t.name === name);
  try {
    if (tool === undefined) {
      const served = tools.map((t) => t.name).join(', ');
      const why = BODIES[name as ToolName] ? ' (this server is read-only: agents mcp --read-only)' : '';
      throw new Error(`no tool ${JSON.stringify(name.slice(0, 80))}${why}; the tools: ${served}`);
    }
    const answer = await BODIES[tool.name](host, new Arguments(raw, tool), call);
    return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
  } catch (err) {
    const e = toCliError(err);
    const hint = e.hint ? `; hint: ${escapeForLine(e.hint)}` : '';
    const line = `error: ${escapeForLine(e.message.split('\n')[0] ?? '')}${hint}`;
    const text = redact(line, await secretOf(host));
    if (call.signal.aborted) {
      const why = call.ending?.() ? 'the server ended' : 'the call was cancelled';
      host.log.info(`agents mcp: ${name} stopped: ${why}; the session goes on`);
    } else host.log.debug(`agents mcp: ${name} failed: ${text}`);
    return { content: [{ type: 'text', text }], isError: true };
  }
}

/** Serves the tools on the run's stdin and stdout until stdin closes or the run is stopped. */
export async function serve(host: Host<Agents>, o: { readOnly: boolean }): Promise<void> {
  const tools = servedTools(o.readOnly);
  // The low-level server: the schemas are ours (JSON Schema, as tools.ts declares them), and so is the
  // checking of arguments, so that a bad one is a tool result and not a protocol error (McpServer would
  // take zod shapes and answer a bad argument with a protocol error).
  const server = new Server(
    { name: 'agents', version: VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  // Ends every call in flight when the server ends (the SDK aborts its handlers' signals on close too).
  const ending = new AbortController();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const token = req.params._meta?.progressToken;
    const call: ToolCallContext = {
      signal: AbortSignal.any([extra.signal, ending.signal]),
      ending: () => ending.signal.aborted,
    };
    if (token !== undefined) {
      call.progress = (progress, total, message) =>
        void extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress, total, message },
          })
          .catch(() => undefined);
    }
    return callTool(host, tools, req.params.name, req.params.arguments, call);
  });
  server.onerror = (err) => {
    void secretOf(host).then((key) => host.log.debug(`agents mcp: ${redact(err.message, key)}`));
  };
  const stdin = host.stdin as unknown as Readable;
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport(stdin, host.stdout as unknown as Writable));
  const end = () => {
    ending.abort();
    void server.close();
  };
  stdin.once('end', end);
  stdin.once('close', end);
  if (host.signal.aborted) end();
  else host.signal.addEventListener('abort', end, { once: true });
  try {
    await closed;
  } finally {
    ending.abort();
    host.signal.removeEventListener('abort', end);
    stdin.off('end', end);
    stdin.off('close', end);
  }
}
