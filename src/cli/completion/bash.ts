// The bash completion script (complete -F): scans the words typed so far for the command, skipping option
// values, and offers commands, options, option values, session ids and subcommands.
import { allCommands, argCases, shQuote, valueCases, valuedPatterns, type Spec } from './command-tree.js';

export function bash(spec: Spec): string {
  const valued = valuedPatterns(spec);
  const words = (list: readonly string[]) => `COMPREPLY=($(compgen -W ${shQuote(list.join(' '))} -- "$cur"))`;
  const values = valueCases(spec, shQuote, (o) =>
    o.file ? 'COMPREPLY=($(compgen -f -- "$cur"))' : words(o.choices),
  );
  const options = allCommands(spec).map(
    (c) => `    ${shQuote(c.path)}) words=${shQuote(c.options.flatMap((o) => o.flags).join(' '))} ;;`,
  );
  const positional = argCases(spec, shQuote, (a) =>
    a.kind === 'words' ? words(a.words) : 'COMPREPLY=($(compgen -W "last $(_agents_sessions)" -- "$cur"))',
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
