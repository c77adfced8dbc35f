// How commander talks to a run (main.ts and help.ts): help and its errors on the run's streams, at their
// width and without colour, its errors in the contract's form, and the exit code its end means.
import type { CommanderError, OutputConfiguration } from 'commander';
import { ExitCode, type ExitCodeValue, type IO } from '../../core/index.js';
import { escapeForLine } from '../../util/text.js';

/** commander's two sentences for a refused value ("… is invalid. expected …."): one, the reason after ':'. */
export function oneSentence(message: string): string {
  const two = /^(error: .* is invalid(?: for argument '[^']*')?)\. (.*?)\.?$/s.exec(message);
  if (!two) return message;
  const [, head, reason = ''] = two;
  // "Allowed choices are …" reads on after a colon in lower case; "UUID …" keeps its capitals.
  const rest = /^[A-Z][a-z]/.test(reason) ? reason[0]!.toLowerCase() + reason.slice(1) : reason;
  return `${head}: ${rest}`;
}

export function commanderOutput(io: Pick<IO, 'stdout' | 'stderr'>): OutputConfiguration {
  return {
    writeOut: (s) => void io.stdout.write(s),
    writeErr: (s) => void io.stderr.write(s),
    getOutHelpWidth: () => io.stdout.columns || 80,
    getErrHelpWidth: () => io.stderr.columns || 80,
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // commander's own messages are one line starting with "error:"; its "(Did you mean …?)" suggestion
    // would be a second, unlabelled line, so it becomes the contract's `hint:` line.
    outputError: (str, write) => {
      const [, message = str, suggestion] = /^([\s\S]*?)(?:\n\(Did you mean (.+)\?\))?\n?$/.exec(str) ?? [];
      write(
        `${escapeForLine(oneSentence(message))}\n${suggestion ? `hint: did you mean ${suggestion}?\n` : ''}`,
      );
    },
  };
}

/** The exit code of a parse commander ended: help and version end with 0, any other end is a usage error. */
export function commanderExitCode(err: CommanderError): ExitCodeValue {
  return err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
}
