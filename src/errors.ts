/** Exit codes of the contract (../shared/spec/cli-contract.md, "Exit codes"). */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  TIMEOUT: 124,
  INTERRUPTED: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface CliErrorOptions {
  exitCode?: ExitCodeValue;
  /** One line for a human: what to do about it. Printed as `hint: …` under the error. */
  hint?: string;
  cause?: unknown;
}

/**
 * The one error type the CLI knows how to end with: a one-line message, an exit code from the contract
 * and an optional hint. Everything thrown is mapped to one of these by the single catch in cli.ts.
 */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly hint: string | undefined;

  constructor(message: string, options: CliErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? ExitCode.FAILURE;
    this.hint = options.hint;
  }
}

/** Bad arguments or input, found before anything was sent: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, { exitCode: ExitCode.USAGE, hint });
    this.name = 'UsageError';
  }
}
