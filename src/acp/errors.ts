// A failure as the ACP error the editor shows: the CLI's one line and its hint (the same mapping as main's
// catch and the MCP results: toCliError), a JSON-RPC code by kind, and never the key.
import { RequestError } from '@agentclientprotocol/sdk';
import { ExitCode, redact, toCliError } from '../core/index.js';

/** ACP's codes: auth required, resource not found, invalid params, internal error. */
const CODES: Partial<Record<number, number>> = {
  [ExitCode.AUTH]: -32000,
  [ExitCode.NOT_FOUND]: -32002,
  [ExitCode.USAGE]: -32602,
};

/** Anything thrown, as an ACP error: the message, `hint: …` beside it, and the exit code the CLI gives it. */
export function acpError(err: unknown, secret: string | undefined): RequestError {
  if (err instanceof RequestError) return err;
  const e = toCliError(err);
  const message = redact(e.message.split('\n')[0] ?? '', secret);
  const hint = e.hint === undefined ? undefined : redact(e.hint, secret);
  const text = hint === undefined ? message : `${message} (hint: ${hint})`;
  return new RequestError(CODES[e.exitCode] ?? -32603, text, { hint: hint ?? null, exitCode: e.exitCode });
}
