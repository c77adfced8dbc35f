// The fish completion script: `complete` rules per command and option, with helper functions that find
// the command on the line and how many arguments it has.
import { allCommands, HELP, descriptionLine, type OptSpec, type Spec } from './command-tree.js';

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** Pure: the fish script for the program. */
export function fish(spec: Spec): string {
  const quoted = (list: readonly string[]) => list.map(fishQuote).join(' ');
  const valuedGlobals = spec.globals.filter((o) => o.value).flatMap((o) => o.flags);
  const valued = allCommands(spec).flatMap((c) =>
    c.options.filter((o) => o.value).flatMap((o) => o.flags.map((f) => `${c.path}:${f}`)),
  );
  const withSubcommands = spec.commands.filter((c) => c.subcommands.length > 0).map((c) => c.path);
  // `N+`: position N or any later one (a variadic argument).
  const at = (path: string, n: string) => `-n ${fishQuote(`__agents_at '${path}' ${n}`)}`;
  const word = (w: string, description: string) =>
    `-a ${fishQuote(w)} -d ${fishQuote(descriptionLine(description))}`;
  const rules = [
    ...spec.globals.map((o) => fishOption('', o)),
    ...spec.commands.map((c) => `complete -c agents -n __agents_no_command ${word(c.name, c.description)}`),
    ...allCommands(spec).flatMap((c) => [
      ...c.options.filter((o) => !spec.globals.includes(o) && o !== HELP).map((o) => fishOption(c.path, o)),
      ...c.args.flatMap((a, i) => {
        const when = at(c.path, `${i}${a.rest ? '+' : ''}`);
        if (a.kind === 'session') return [`complete -c agents ${when} -k -a '(__agents_sessions)'`];
        return a.kind === 'words' ? [`complete -c agents ${when} -a ${fishQuote(a.words.join(' '))}`] : [];
      }),
      ...c.subcommands.map((s) => `complete -c agents ${at(c.path, '0')} ${word(s.name, s.description)}`),
    ]),
  ];
  return `# fish completion for agents. Install it with:
#   agents completion fish > ~/.config/fish/completions/agents.fish

# The command (and subcommand) the line holds so far, and how many arguments it has.
function __agents_state
    set -l words (commandline -opc)
    set -l cmd
    set -l npos 0
    set -l i 2
    while test $i -le (count $words)
        set -l w $words[$i]
        if string match -q -- "-*" $w
            if contains -- "$cmd:$w" ${quoted(valuedGlobals.map((f) => `:${f}`))}; or contains -- "*:$w" ${quoted(valuedGlobals.map((f) => `*:${f}`))}; or contains -- "$cmd:$w" ${quoted(valued)}
                set i (math $i + 1)
            end
        else if test -z "$cmd"
            set cmd $w
        else if test $npos -eq 0; and contains -- $cmd ${quoted(withSubcommands)}
            set cmd "$cmd $w"
        else
            set npos (math $npos + 1)
        end
        set i (math $i + 1)
    end
    echo $cmd
    echo $npos
end

# true when the line is at argument N of command CMD
function __agents_at
    set -l s (__agents_state)
    test "$s[1]" = "$argv[1]"; or return 1
    if string match -q -- '*+' $argv[2]
        test "$s[2]" -ge (string trim -r -c + -- $argv[2])
    else
        test "$s[2]" = "$argv[2]"
    end
end

function __agents_command
    set -l s (__agents_state)
    test "$s[1]" = "$argv[1]"
end

function __agents_no_command
    set -l s (__agents_state)
    test -z "$s[1]"
end

function __agents_sessions
    set -l words (commandline -opc)
    set -l bin $words[1]
    command -q $bin; or set bin agents
    set -l profile
    set -l i (contains -i -- --profile $words)
    and set profile --profile $words[(math $i + 1)]
    printf '%s\\t%s\\n' last 'the session this machine created or sent to last'
    $bin $profile __complete sessions 2>/dev/null
end

complete -c agents -f
${rules.join('\n')}
`;
}

function fishOption(path: string, o: OptSpec): string {
  const parts = ['complete -c agents'];
  if (path !== '') parts.push(`-n ${fishQuote(`__agents_command '${path}'`)}`);
  for (const f of o.flags) parts.push(f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`);
  if (o.value) parts.push(o.file ? '-r -F' : '-x');
  if (o.choices.length > 0) parts.push(`-a ${fishQuote(o.choices.join(' '))}`);
  parts.push(`-d ${fishQuote(descriptionLine(o.description))}`);
  return parts.join(' ');
}
