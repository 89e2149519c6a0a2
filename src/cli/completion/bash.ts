/**
 * The bash completion script. Commands, options and their values are written into the script;
 * session ids are asked of the tool when completed (`__complete sessions`, honouring --state-dir)
 * and kubeconfig contexts of kubectl (honouring --kubeconfig). Needs bash 4 or newer.
 */
import { valueOptions, type CompletionSpec, type ValueCompletion } from './spec.js';

/** A word list for `compgen -W` (the names are plain: letters, digits and dashes). */
const words = (list: readonly string[]) => list.join(' ');

function valueLines(value: ValueCompletion): string[] {
  switch (value.kind) {
    case 'file':
      return ['__upgrade_pilot_reply -o filenames -f -- "$cur"'];
    case 'dir':
      return ['__upgrade_pilot_reply -o filenames -d -- "$cur"'];
    case 'words':
      return value.list
        ? ['# a comma-separated list: complete the part after the last comma', 'local done=; [[ $cur == *,* ]] && done=${cur%,*},', `__upgrade_pilot_reply -P "$done" -W "${words(value.words)}" -- "\${cur##*,}"`]
        : [`__upgrade_pilot_reply -W "${words(value.words)}" -- "$cur"`];
    case 'context':
      return ['__upgrade_pilot_reply -W "$(kubectl config get-contexts -o name ${kubeconfig:+--kubeconfig "$kubeconfig"} 2>/dev/null)" -- "$cur"'];
    case 'session':
      return [`__upgrade_pilot_reply -W "$("\${COMP_WORDS[0]}" __complete ${value.which === 'resumable' ? 'resumable' : 'sessions'} \${state_dir:+--state-dir "$state_dir"} 2>/dev/null)" -- "$cur"`];
    case 'free':
      return [':'];
  }
}

const indent = (lines: string[], n: number) => lines.map((l) => `${' '.repeat(n)}${l}`);

export function bashScript(spec: CompletionSpec): string {
  const fn = `_${spec.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const takesValue = valueOptions(spec);
  const optionCases = takesValue.flatMap((o) => [`  --${o.name})`, ...indent(valueLines(o.value!), 4), '    return ;;']);
  const commandOptions = spec.commands.map((c) => `    ${c.name}) __upgrade_pilot_reply -W "${words(c.options.flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])]))}" -- "$cur" ;;`);
  const positionals = spec.commands
    .filter((c) => c.positional)
    .flatMap((c) => [`  ${c.name})`, ...indent(valueLines(c.positional!.value), 4), '    ;;']);
  const globals = spec.globals.flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])]);
  return `# bash completion for ${spec.program}, derived from its command definitions.
# Load it in this shell:  source <(${spec.program} completion bash)
# Or for every shell:     ${spec.program} completion bash > ~/.local/share/bash-completion/completions/${spec.program}

# COMPREPLY from compgen with the given arguments, one candidate a line (names may hold spaces).
__upgrade_pilot_reply() {
  local opt=
  if [[ $1 == -o ]]; then opt=$2; shift 2; compopt -o "$opt" 2>/dev/null; fi
  mapfile -t COMPREPLY < <(compgen "$@")
}

${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev= word cmd= state_dir= kubeconfig= i
  local -a args=()
  COMPREPLY=()
  # bash splits "--option=value" at "=": the value is completed for the option before it.
  if [[ $cur == = ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-1]}; cur=
  elif (( COMP_CWORD > 1 )) && [[ \${COMP_WORDS[COMP_CWORD-1]} == = ]]; then
    prev=\${COMP_WORDS[COMP_CWORD-2]}
  elif (( COMP_CWORD > 0 )); then
    prev=\${COMP_WORDS[COMP_CWORD-1]}
  fi
  # Every word but this one: options with their values (--state-dir and --kubeconfig count wherever
  # they are on the line), and before this one the command and its positional argument.
  for (( i = 1; i < \${#COMP_WORDS[@]}; i++ )); do
    (( i == COMP_CWORD )) && continue
    word=\${COMP_WORDS[i]}
    local value= has_value=
    if [[ \${COMP_WORDS[i+1]} == = ]] && (( i + 1 != COMP_CWORD )); then
      value=\${COMP_WORDS[i+2]}; has_value=1; (( i += 2 ))
    elif (( i + 1 != COMP_CWORD )); then
      case $word in
        ${takesValue.map((o) => `--${o.name}`).join('|')}) value=\${COMP_WORDS[i+1]}; has_value=1; (( i++ )) ;;
      esac
    fi
    if [[ -n $has_value ]]; then
      case $word in
        --state-dir) state_dir=\${value/#\\~/$HOME} ;;
        --kubeconfig) kubeconfig=\${value/#\\~/$HOME} ;;
      esac
    elif [[ $word != -* ]] && (( i < COMP_CWORD )); then
      args+=("$word")
    fi
  done
  cmd=\${args[0]}

  case $prev in
${optionCases.join('\n')}
  esac

  if [[ $cur == -* ]]; then
    case $cmd in
${commandOptions.join('\n')}
      '') __upgrade_pilot_reply -W "${words(globals)}" -- "$cur" ;;
    esac
    return
  fi
  if [[ -z $cmd ]]; then
    __upgrade_pilot_reply -W "${words(spec.commands.map((c) => c.name))}" -- "$cur"
    return
  fi
  (( \${#args[@]} > 1 )) && return
  case $cmd in
${indent(positionals, 2).join('\n')}
  esac
}

complete -F ${fn} ${spec.program}
`;
}
