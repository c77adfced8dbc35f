// What the completion scripts know, read from the commander program so they always match this version:
// commands, options (taking a value, a choice, a file) and what each positional argument completes to.
import { Option, type Argument, type Command } from 'commander';
import { CONFIG_KEYS } from '../../core/index.js';
import { flatten } from '../../util/text.js';

/** What a positional argument completes to; `rest`: it is variadic, so every later position too. */
export type ArgKind = (
  { kind: 'session' } | { kind: 'words'; words: readonly string[] } | { kind: 'none' }
) & {
  rest?: boolean;
};

export interface CmdSpec {
  /** `config get` is "config get". */
  path: string;
  name: string;
  description: string;
  options: OptSpec[];
  args: ArgKind[];
  subcommands: CmdSpec[];
}

const FILE_OPTIONS = new Set(['--file', '--output', '--agent-profile-file', '--output-dir']);

function optSpec(o: Option) {
  const flags = [o.short, o.long].filter((f): f is string => typeof f === 'string');
  return {
    flags,
    /** The word after it is its value. */
    value: o.required || o.optional,
    choices: o.argChoices ?? [],
    /** Its value is a file name. */
    file: flags.some((f) => FILE_OPTIONS.has(f)),
    description: o.description,
  };
}

export type OptSpec = ReturnType<typeof optSpec>;

function argKind(a: Argument): ArgKind {
  const rest = a.variadic ? { rest: true } : {};
  // `wait`'s references: sessions, each one of them.
  if (a.name() === 'session' || a.name() === 'ref') return { kind: 'session', ...rest };
  if (a.argChoices) return { kind: 'words', words: a.argChoices, ...rest };
  if (a.name() === 'key') return { kind: 'words', words: CONFIG_KEYS, ...rest };
  return { kind: 'none' };
}

export const HELP = optSpec(new Option('-h, --help', 'show help'));

function cmdSpec(c: Command, parent: string, globals: OptSpec[]): CmdSpec {
  const path = parent ? `${parent} ${c.name()}` : c.name();
  return {
    path,
    name: c.name(),
    description: c.description(),
    options: [...c.options.filter((o) => !o.hidden).map(optSpec), ...globals, HELP],
    args: c.registeredArguments.map(argKind),
    subcommands: c.commands.filter((s) => !s.name().startsWith('__')).map((s) => cmdSpec(s, path, globals)),
  };
}

/** The program's commands and options, as the scripts need them. */
export function commandTree(program: Command): { globals: OptSpec[]; commands: CmdSpec[] } {
  const globals = program.options.filter((o) => !o.hidden).map(optSpec);
  const commands = program.commands
    .filter((c) => !c.name().startsWith('__'))
    .map((c) => cmdSpec(c, '', globals));
  return { globals: [...globals, HELP], commands };
}

/** The program as the completion scripts see it. */
export type Spec = ReturnType<typeof commandTree>;

/** Every command, subcommands too, with its `path` ("config get"). */
export function allCommands(spec: Spec): CmdSpec[] {
  return spec.commands.flatMap((c) => [c, ...c.subcommands]);
}

export const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
export const descriptionLine = (s: string) => flatten(s, 120);

/** A command's path ("config get") as a shell's `case` pattern. */
type PathPattern = (path: string) => string;

/** `cmd:flag` of each option that takes a value, for bash and zsh (a global one under any command: `*`). */
export function valuedPatterns(spec: Spec): string[] {
  return [
    ...spec.globals.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `*:${f}`)),
    ...allCommands(spec).flatMap((c) =>
      c.options
        .filter((o) => o.value && !spec.globals.includes(o))
        .flatMap((o) => o.flags.map((f) => `${c.path}:${f}`)),
    ),
  ];
}

/** A `case` branch (bash, zsh) for each option whose value completes: a choice of words, or a file. */
export function valueCases(spec: Spec, path: PathPattern, action: (o: OptSpec) => string): string[] {
  return allCommands(spec).flatMap((c) =>
    c.options
      .filter((o) => o.value && (o.choices.length > 0 || o.file))
      .map((o) => `    ${o.flags.map((f) => `${path(c.path)}:${f}`).join('|')}) ${action(o)} ;;`),
  );
}

/** A `case` branch for each argument that completes to something, at `cmd:N` (`cmd:*` when variadic). */
export function argCases(spec: Spec, path: PathPattern, action: (a: ArgKind) => string): string[] {
  return allCommands(spec).flatMap((c) =>
    c.args.flatMap((a, i) =>
      a.kind === 'none' ? [] : [`    ${path(c.path)}:${a.rest ? '*' : i}) ${action(a)} ;;`],
    ),
  );
}
