// agents completion bash|zsh|fish: a completion script written from the commander program itself, so it
// always knows the commands and options of this version: commands, options (with the values of those that
// take a choice: agent names, shells…), files where an option takes one, and session ids where a command
// takes a session, from `agents __complete sessions` (the state file alone: no request, no key).
import type { Argument, Command, Option } from 'commander';
import type { Context } from '../context.js';
import { CONFIG_KEYS } from '../config/validate.js';
import { readKnownSessions } from '../state/sessions.js';
import type { Item } from '../output/items.js';
import { flatten } from '../util/text.js';

/** An option as completion sees it. */
interface OptSpec {
  flags: string[];
  /** The word after it is its value. */
  value: boolean;
  choices: readonly string[];
  /** Its value is a file name. */
  file: boolean;
  description: string;
}

/** What a positional argument completes to. */
type ArgKind = { kind: 'session' } | { kind: 'words'; words: readonly string[] } | { kind: 'none' };

interface CmdSpec {
  /** `config get` is "config get". */
  path: string;
  name: string;
  description: string;
  options: OptSpec[];
  args: ArgKind[];
  subcommands: CmdSpec[];
}

const FILE_OPTIONS = new Set(['--file', '--output', '--agent-profile-file', '--output-dir']);

function optSpec(o: Option): OptSpec {
  const flags = [o.short, o.long].filter((f): f is string => typeof f === 'string');
  return {
    flags,
    value: o.required || o.optional,
    choices: o.argChoices ?? [],
    file: flags.some((f) => FILE_OPTIONS.has(f)),
    description: o.description,
  };
}

function argKind(a: Argument): ArgKind {
  if (a.name() === 'session') return { kind: 'session' };
  if (a.argChoices) return { kind: 'words', words: a.argChoices };
  if (a.name() === 'key') return { kind: 'words', words: CONFIG_KEYS };
  return { kind: 'none' };
}

const HELP: OptSpec = {
  flags: ['-h', '--help'],
  value: false,
  choices: [],
  file: false,
  description: 'show help',
};

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

/** Pure: the program's commands and options, as the scripts need them. */
export function completionSpec(program: Command): { globals: OptSpec[]; commands: CmdSpec[] } {
  const globals = program.options.filter((o) => !o.hidden).map(optSpec);
  const commands = program.commands
    .filter((c) => !c.name().startsWith('__'))
    .map((c) => cmdSpec(c, '', globals));
  return { globals: [...globals, HELP], commands };
}

type Spec = ReturnType<typeof completionSpec>;

/** Every command, subcommands too, with its `path` ("config get"). */
function allCommands(spec: Spec): CmdSpec[] {
  return spec.commands.flatMap((c) => [c, ...c.subcommands]);
}

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const oneLine = (s: string) => flatten(s, 120);

function bash(spec: Spec): string {
  const cmds = allCommands(spec);
  // "cmd:flag" patterns of the options that take a value (global ones under any command).
  const valued = [
    ...spec.globals.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `*:${f}`)),
    ...cmds.flatMap((c) =>
      c.options
        .filter((o) => o.value && !spec.globals.includes(o))
        .flatMap((o) => o.flags.map((f) => `${c.path}:${f}`)),
    ),
  ];
  const values = cmds.flatMap((c) =>
    c.options
      .filter((o) => o.value && (o.choices.length > 0 || o.file))
      .map((o) => {
        const pattern = o.flags.map((f) => `${shQuote(c.path)}:${f}`).join('|');
        const action = o.file
          ? 'compgen -f -- "$cur"'
          : `compgen -W ${shQuote(o.choices.join(' '))} -- "$cur"`;
        return `    ${pattern}) COMPREPLY=($(${action})) ;;`;
      }),
  );
  const options = cmds.map(
    (c) => `    ${shQuote(c.path)}) words=${shQuote(c.options.flatMap((o) => o.flags).join(' '))} ;;`,
  );
  const positional = cmds.flatMap((c) =>
    c.args.flatMap((a, i) => {
      const at = `${shQuote(c.path)}:${i}`;
      if (a.kind === 'session')
        return [`    ${at}) COMPREPLY=($(compgen -W "last $(_agents_sessions)" -- "$cur")) ;;`];
      if (a.kind === 'words')
        return [`    ${at}) COMPREPLY=($(compgen -W ${shQuote(a.words.join(' '))} -- "$cur")) ;;`];
      return [];
    }),
  );
  const withSubcommands = spec.commands.filter((c) => c.subcommands.length > 0);
  const subs = withSubcommands.map(
    (c) => `    ${shQuote(c.path)}) words=${shQuote(c.subcommands.map((s) => s.name).join(' '))} ;;`,
  );
  return `# bash completion for agents. Load it with: source <(agents completion bash)
_agents_sessions() {
  local bin=\${COMP_WORDS[0]}
  command -v "$bin" >/dev/null 2>&1 || bin=agents
  "$bin" \${_agents_profile:+--profile "$_agents_profile"} __complete sessions 2>/dev/null | cut -f1
}

_agents_takes_value() {
  case "$1:$2" in
    ${valued.join('|')}) return 0 ;;
  esac
  return 1
}

_agents() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local cmd="" npos=0 i w words="" _agents_profile=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      [[ $w == --profile ]] && _agents_profile=\${COMP_WORDS[i+1]}
      _agents_takes_value "$cmd" "$w" && ((i++))
      continue
    fi
    if [[ -z $cmd ]]; then
      cmd=$w
    elif [[ $npos == 0 ]] && case "$cmd" in ${withSubcommands.map((c) => shQuote(c.path)).join('|') || "''"}) true ;; *) false ;; esac; then
      cmd="$cmd $w"
    else
      ((npos++))
    fi
  done
  COMPREPLY=()
  if [[ $prev == -* ]] && _agents_takes_value "$cmd" "$prev"; then
    case "$cmd:$prev" in
${values.join('\n')}
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    case "$cmd" in
${options.join('\n')}
      *) words=${shQuote(spec.globals.flatMap((o) => o.flags).join(' '))} ;;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return
  fi
  if [[ -z $cmd ]]; then
    COMPREPLY=($(compgen -W ${shQuote(spec.commands.map((c) => c.name).join(' '))} -- "$cur"))
    return
  fi
  case "$cmd" in
${subs.join('\n')}
  esac
  if [[ -n $words && $npos == 0 ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return
  fi
  case "$cmd:$npos" in
${positional.join('\n')}
  esac
}

complete -o bashdefault -o default -F _agents agents
`;
}

/** A value for zsh's _describe: "word:description", the word's colons escaped. */
const zshItem = (word: string, description: string) =>
  shQuote(`${word.replace(/:/g, '\\:')}:${oneLine(description)}`);

function zsh(spec: Spec): string {
  const cmds = allCommands(spec);
  const valued = [
    ...spec.globals.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `*:${f}`)),
    ...cmds.flatMap((c) =>
      c.options
        .filter((o) => o.value && !spec.globals.includes(o))
        .flatMap((o) => o.flags.map((f) => `${c.path}:${f}`)),
    ),
  ].map((p) => p.replace(/ /g, '\\ '));
  const values = cmds.flatMap((c) =>
    c.options
      .filter((o) => o.value && (o.choices.length > 0 || o.file))
      .map((o) => {
        const pattern = o.flags.map((f) => `${c.path.replace(/ /g, '\\ ')}:${f}`).join('|');
        const action = o.file
          ? '_files'
          : `local -a v; v=(${o.choices.map(shQuote).join(' ')}); compadd -a v`;
        return `    ${pattern}) ${action} ;;`;
      }),
  );
  const options = cmds.map(
    (c) =>
      `    ${shQuote(c.path)}) opts=(${c.options.flatMap((o) => o.flags.map((f) => zshItem(f, o.description))).join(' ')}) ;;`,
  );
  const positional = cmds.flatMap((c) =>
    c.args.flatMap((a, i) => {
      const at = `${c.path.replace(/ /g, '\\ ')}:${i}`;
      if (a.kind === 'session') return [`    ${at}) _agents_sessions ;;`];
      if (a.kind === 'words')
        return [`    ${at}) local -a v; v=(${a.words.map(shQuote).join(' ')}); compadd -a v ;;`];
      return [];
    }),
  );
  const withSubcommands = spec.commands.filter((c) => c.subcommands.length > 0);
  const subs = withSubcommands.map(
    (c) =>
      `    ${shQuote(c.path)}) subs=(${c.subcommands.map((s) => zshItem(s.name, s.description)).join(' ')}) ;;`,
  );
  return `#compdef agents
# zsh completion for agents. Load it with: source <(agents completion zsh)   (after compinit)
# or save it as _agents in a directory of $fpath.
_agents_sessions() {
  local bin=\${words[1]} line
  (( $+commands[$bin] )) || [[ -x $bin ]] || bin=agents
  local -a sessions profile
  [[ -n $_agents_profile ]] && profile=(--profile "$_agents_profile")
  sessions=('last:the session this machine created or sent to last')
  for line in \${(f)"$("$bin" $profile __complete sessions 2>/dev/null)"}; do
    sessions+=("\${line%%$'\\t'*}:\${line#*$'\\t'}")
  done
  _describe -t sessions 'session' sessions
}

_agents_takes_value() {
  case "$1:$2" in
    ${valued.join('|')}) return 0 ;;
  esac
  return 1
}

_agents() {
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}
  local cmd="" w _agents_profile=""
  local -i i npos=0
  local -a opts subs
  for ((i = 2; i < CURRENT; i++)); do
    w=\${words[i]}
    if [[ $w == -* ]]; then
      [[ $w == --profile ]] && _agents_profile=\${words[i+1]}
      _agents_takes_value "$cmd" "$w" && ((i++))
      continue
    fi
    if [[ -z $cmd ]]; then
      cmd=$w
    elif (( npos == 0 )) && [[ $cmd == (${withSubcommands.map((c) => c.path).join('|') || '_'}) ]]; then
      cmd="$cmd $w"
    else
      ((npos++))
    fi
  done
  if [[ $prev == -* ]] && _agents_takes_value "$cmd" "$prev"; then
    case "$cmd:$prev" in
${values.join('\n')}
    esac
    return
  fi
  if [[ $cur == -* ]]; then
    case "$cmd" in
${options.join('\n')}
      *) opts=(${spec.globals.flatMap((o) => o.flags.map((f) => zshItem(f, o.description))).join(' ')}) ;;
    esac
    _describe -t options 'option' opts
    return
  fi
  if [[ -z $cmd ]]; then
    local -a cmds
    cmds=(${spec.commands.map((c) => zshItem(c.name, c.description)).join(' ')})
    _describe -t commands 'command' cmds
    return
  fi
  case "$cmd" in
${subs.join('\n')}
  esac
  if (( $#subs && npos == 0 )); then
    _describe -t commands 'subcommand' subs
    return
  fi
  case "$cmd:$npos" in
${positional.join('\n')}
    *) _files ;;
  esac
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _agents "$@"
else
  compdef _agents agents
fi
`;
}

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fish(spec: Spec): string {
  const lines: string[] = [
    '# fish completion for agents. Install it with:',
    '#   agents completion fish > ~/.config/fish/completions/agents.fish',
    '',
    '# The command (and subcommand) the line holds so far, and how many arguments it has.',
    'function __agents_state',
    '    set -l words (commandline -opc)',
    '    set -l cmd',
    '    set -l npos 0',
    '    set -l i 2',
    '    while test $i -le (count $words)',
    '        set -l w $words[$i]',
    '        if string match -q -- "-*" $w',
    `            if contains -- "$cmd:$w" ${[
      ...spec.globals.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `:${f}`)),
    ]
      .map((p) => fishQuote(p))
      .join(' ')}; or contains -- "*:$w" ${spec.globals
      .filter((o) => o.value)
      .flatMap((o) => o.flags.map((f) => fishQuote(`*:${f}`)))
      .join(' ')}; or contains -- "$cmd:$w" ${allCommands(spec)
      .flatMap((c) =>
        c.options.filter((o) => o.value).flatMap((o) => o.flags.map((f) => fishQuote(`${c.path}:${f}`))),
      )
      .join(' ')}`,
    '                set i (math $i + 1)',
    '            end',
    '        else if test -z "$cmd"',
    '            set cmd $w',
    `        else if test $npos -eq 0; and contains -- $cmd ${spec.commands
      .filter((c) => c.subcommands.length > 0)
      .map((c) => fishQuote(c.path))
      .join(' ')}`,
    '            set cmd "$cmd $w"',
    '        else',
    '            set npos (math $npos + 1)',
    '        end',
    '        set i (math $i + 1)',
    '    end',
    '    echo $cmd',
    '    echo $npos',
    'end',
    '',
    '# true when the line is at argument N of command CMD',
    'function __agents_at',
    '    set -l s (__agents_state)',
    '    test "$s[1]" = "$argv[1]"; and test "$s[2]" = "$argv[2]"',
    'end',
    '',
    'function __agents_command',
    '    set -l s (__agents_state)',
    '    test "$s[1]" = "$argv[1]"',
    'end',
    '',
    'function __agents_no_command',
    '    set -l s (__agents_state)',
    '    test -z "$s[1]"',
    'end',
    '',
    'function __agents_sessions',
    '    set -l words (commandline -opc)',
    '    set -l bin $words[1]',
    '    command -q $bin; or set bin agents',
    '    set -l profile',
    '    set -l i (contains -i -- --profile $words)',
    '    and set profile --profile $words[(math $i + 1)]',
    "    printf '%s\\t%s\\n' last 'the session this machine created or sent to last'",
    '    $bin $profile __complete sessions 2>/dev/null',
    'end',
    '',
    'complete -c agents -f',
  ];
  for (const o of spec.globals) lines.push(fishOption('', o));
  for (const c of spec.commands) {
    lines.push(
      `complete -c agents -n __agents_no_command -a ${fishQuote(c.name)} -d ${fishQuote(oneLine(c.description))}`,
    );
  }
  for (const c of allCommands(spec)) {
    for (const o of c.options.filter((x) => !spec.globals.includes(x) && x !== HELP))
      lines.push(fishOption(c.path, o));
    c.args.forEach((a, i) => {
      const when = `-n ${fishQuote(`__agents_at '${c.path}' ${i}`)}`;
      if (a.kind === 'session') lines.push(`complete -c agents ${when} -k -a '(__agents_sessions)'`);
      if (a.kind === 'words') lines.push(`complete -c agents ${when} -a ${fishQuote(a.words.join(' '))}`);
    });
    for (const s of c.subcommands) {
      lines.push(
        `complete -c agents -n ${fishQuote(`__agents_at '${c.path}' 0`)} -a ${fishQuote(s.name)} -d ${fishQuote(oneLine(s.description))}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function fishOption(path: string, o: OptSpec): string {
  const parts = ['complete -c agents'];
  if (path !== '') parts.push(`-n ${fishQuote(`__agents_command '${path}'`)}`);
  for (const f of o.flags) parts.push(f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`);
  if (o.value) parts.push(o.file ? '-r -F' : '-x');
  if (o.choices.length > 0) parts.push(`-a ${fishQuote(o.choices.join(' '))}`);
  parts.push(`-d ${fishQuote(oneLine(o.description))}`);
  return parts.join(' ');
}

/** The completion script for `shell`. */
export function completion(program: Command, shell: 'bash' | 'zsh' | 'fish'): Item {
  const spec = completionSpec(program);
  const script = shell === 'bash' ? bash(spec) : shell === 'zsh' ? zsh(spec) : fish(spec);
  return { kind: 'value', text: script.replace(/\n$/, ''), json: script };
}

/** `agents __complete sessions`: the profile's known session ids, each with its title after a tab. */
export async function completeWords(ctx: Context, what: string): Promise<Item> {
  if (what !== 'sessions') return { kind: 'value', text: undefined, json: [] };
  const { profile } = await ctx.settings([]);
  const known = await readKnownSessions(ctx.state, profile);
  const text = known.map((s) => `${s.id}\t${flatten(s.title ?? '', 80).replace(/\t/g, ' ')}`).join('\n');
  return { kind: 'value', text: known.length ? text : undefined, json: known.map((s) => s.id) };
}
