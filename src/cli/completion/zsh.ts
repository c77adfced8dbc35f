// The zsh completion script: the same scan as bash's, offering words with descriptions through
// _describe; loads as a function in $fpath or through `source <(agents completion zsh)`.
import {
  allCommands,
  argCases,
  descriptionLine,
  shQuote,
  valueCases,
  valuedPatterns,
  type Spec,
} from './command-tree.js';

/** A value for zsh's _describe: "word:description", the word's colons escaped. */
const zshItem = (word: string, description: string) =>
  shQuote(`${word.replace(/:/g, '\\:')}:${descriptionLine(description)}`);

/** A command's path as a zsh pattern: its space escaped. */
const zshPath = (p: string) => p.replace(/ /g, '\\ ');

export function zsh(spec: Spec): string {
  const valued = valuedPatterns(spec).map(zshPath);
  const words = (list: readonly string[]) => `local -a v; v=(${list.map(shQuote).join(' ')}); compadd -a v`;
  const values = valueCases(spec, zshPath, (o) => (o.file ? '_files' : words(o.choices)));
  const options = allCommands(spec).map(
    (c) =>
      `    ${shQuote(c.path)}) opts=(${c.options.flatMap((o) => o.flags.map((f) => zshItem(f, o.description))).join(' ')}) ;;`,
  );
  const positional = argCases(spec, zshPath, (a) =>
    a.kind === 'words' ? words(a.words) : '_agents_sessions',
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
