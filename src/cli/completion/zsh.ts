/**
 * The zsh completion script (`_arguments`, with each option's and command's description). Session
 * ids are asked of the tool when completed (honouring --state-dir), contexts of kubectl.
 */
import type { CompletionOption, CompletionSpec, ValueCompletion } from './spec.js';

/**
 * Text inside a single-quoted `_arguments` spec: `[]:` escaped first, then quotes closed and
 * reopened (the other order escapes the quote's own backslash: a description with ' broke the script).
 */
const desc = (s: string) => s.replace(/([[\]:\\])/g, '\\$1').replace(/'/g, `'\\''`);

function action(value: ValueCompletion): string {
  switch (value.kind) {
    case 'file':
      return '_files';
    case 'dir':
      return '_files -/';
    case 'words':
      return value.list ? `_sequence compadd - ${value.words.join(' ')}` : `(${value.words.join(' ')})`;
    case 'context':
      return '__upgrade_pilot_contexts';
    case 'session':
      return value.which === 'resumable' ? '__upgrade_pilot_resumable' : '__upgrade_pilot_sessions';
    case 'free':
      return ' ';
  }
}

function optionSpec(o: CompletionOption): string[] {
  const repeat = o.repeatable ? '*' : '';
  if (!o.value) {
    if (o.short) return [`'(-${o.short} --${o.name})'{-${o.short},--${o.name}}'[${desc(o.description)}]'`];
    return [`'${repeat}--${o.name}[${desc(o.description)}]'`];
  }
  return [`'${repeat}--${o.name}=[${desc(o.description)}]:${o.name}:${action(o.value).replace(/'/g, `'\\''`)}'`];
}

export function zshScript(spec: CompletionSpec): string {
  const fn = `_${spec.program.replace(/[^A-Za-z0-9]/g, '_')}`;
  const commandList = spec.commands.map((c) => `    '${c.name}:${desc(c.summary)}'`);
  const perCommand = spec.commands.map((c) => {
    const lines = c.options.flatMap(optionSpec);
    if (c.positional) lines.push(`'1:${c.positional.name}:${action(c.positional.value)}'`);
    return [`      ${c.name})`, `        _arguments -s -S \\`, ...lines.map((l) => `          ${l} \\`), '          && ret=0 ;;'].join('\n');
  });
  const globals = spec.globals.flatMap(optionSpec).map((l) => `    ${l} \\`);
  return `#compdef ${spec.program}
# zsh completion for ${spec.program}, derived from its command definitions.
# Load it in this shell:  source <(${spec.program} completion zsh)
# Or for every shell:     ${spec.program} completion zsh > "\${fpath[1]}/_${spec.program}"   (then restart zsh)

# \$1: sessions (every saved one) or resumable (those resume can continue); --state-dir wherever it is on the line.
__upgrade_pilot_ids() {
  local -a ids
  local dir=\${opt_args[--state-dir]}
  ids=(\${(f)"$(${spec.program} __complete $1 \${dir:+--state-dir "\${~dir}"} 2>/dev/null)"})
  _describe -t sessions 'saved session' ids
}
__upgrade_pilot_sessions() { __upgrade_pilot_ids sessions }
__upgrade_pilot_resumable() { __upgrade_pilot_ids resumable }

__upgrade_pilot_contexts() {
  local -a contexts
  local config=\${opt_args[--kubeconfig]}
  contexts=(\${(f)"$(kubectl config get-contexts -o name \${config:+--kubeconfig "\${~config}"} 2>/dev/null)"})
  _describe -t contexts 'kubeconfig context' contexts
}

${fn}() {
  local curcontext=$curcontext state line ret=1
  typeset -A opt_args
  local -a commands
  commands=(
${commandList.join('\n')}
  )
  _arguments -C \\
${globals.join('\n')}
    '1: :->command' \\
    '*:: :->args' \\
    && ret=0
  case $state in
    command)
      _describe -t commands '${spec.program} command' commands && ret=0 ;;
    args)
      curcontext=\${curcontext%:*:*}:${spec.program}-$words[1]:
      case $words[1] in
${perCommand.join('\n')}
      esac ;;
  esac
  return ret
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  ${fn} "$@"
else
  compdef ${fn} ${spec.program}
fi
`;
}
