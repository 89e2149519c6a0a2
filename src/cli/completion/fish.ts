/**
 * The fish completion script: one `complete` line per command and per option of each command,
 * with their descriptions. Session ids are asked of the tool when completed (honouring
 * --state-dir), contexts of kubectl (honouring --kubeconfig).
 */
import { valueOptions, type CompletionOption, type CompletionSpec, type ValueCompletion } from './spec.js';

/** A single-quoted fish string. */
const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function valueArgs(value: ValueCompletion): string {
  switch (value.kind) {
    case 'file':
      return '-r -F';
    case 'dir':
      return `-x -a ${q('(__fish_complete_directories)')}`;
    case 'words':
      return value.list ? `-x -a ${q(`(__fish_complete_list , "string split ' ' -- ${value.words.join(' ')}")`)}` : `-x -a ${q(value.words.join(' '))}`;
    case 'context':
      return `-x -a ${q('(__upgrade_pilot_contexts)')}`;
    case 'session':
      return `-x -a ${q(`(__upgrade_pilot_sessions ${value.which === 'resumable' ? 'resumable' : 'sessions'})`)}`;
    case 'free':
      return '-x';
  }
}

function optionLine(program: string, condition: string, o: CompletionOption): string {
  const parts = [`complete -c ${program}`, `-n ${q(condition)}`, `-l ${o.name}`];
  if (o.short) parts.push(`-s ${o.short}`);
  if (o.value) parts.push(valueArgs(o.value));
  parts.push(`-d ${q(o.description)}`);
  return parts.join(' ');
}

export function fishScript(spec: CompletionSpec): string {
  const p = spec.program;
  const withValue = valueOptions(spec).map((o) => `--${o.name}`);
  const lines: string[] = [];
  for (const o of spec.globals) lines.push(optionLine(p, '__upgrade_pilot_needs_command', o));
  for (const c of spec.commands) lines.push(`complete -c ${p} -n __upgrade_pilot_needs_command -a ${c.name} -d ${q(c.summary)}`);
  for (const c of spec.commands) {
    const using = `__upgrade_pilot_using ${c.name}`;
    for (const o of c.options) lines.push(optionLine(p, using, o));
    if (c.positional) {
      const args = valueArgs(c.positional.value).replace(/^-[rx] ?/, '');
      if (args) lines.push(`complete -c ${p} -n ${q(`${using}; and __upgrade_pilot_no_positional`)} ${args} -d ${q(c.positional.description)}`);
    }
  }
  return `# fish completion for ${p}, derived from its command definitions.
# Install:  ${p} completion fish > ~/.config/fish/completions/${p}.fish

# The words typed so far, without the options and their values.
function __upgrade_pilot_args
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l skip 0
    for t in $tokens
        if test $skip = 1
            set skip 0
        else if contains -- $t ${withValue.join(' ')}
            set skip 1
        else if not string match -q -- '-*' $t
            echo $t
        end
    end
end

# The value of an option on the line, before the cursor or after it (--name VALUE or --name=VALUE).
function __upgrade_pilot_option -a name
    set -l tokens (commandline -op)
    for i in (seq (count $tokens))
        if test "$tokens[$i]" = "--$name"; and test $i -lt (count $tokens)
            echo $tokens[(math $i + 1)]
        else if string match -q -- "--$name=*" $tokens[$i]
            string replace -- "--$name=" '' $tokens[$i]
        end
    end
end

function __upgrade_pilot_needs_command
    test (count (__upgrade_pilot_args)) -eq 0
end

function __upgrade_pilot_using -a name
    set -l args (__upgrade_pilot_args)
    test "$args[1]" = $name
end

function __upgrade_pilot_no_positional
    test (count (__upgrade_pilot_args)) -lt 2
end

# $which: sessions (every saved one) or resumable (those resume can continue).
function __upgrade_pilot_sessions -a which
    set -l dir (__upgrade_pilot_option state-dir)[-1]
    if test -n "$dir"
        ${p} __complete $which --state-dir (string replace -r '^~' $HOME -- $dir) 2>/dev/null
    else
        ${p} __complete $which 2>/dev/null
    end
end

function __upgrade_pilot_contexts
    set -l config (__upgrade_pilot_option kubeconfig)[-1]
    if test -n "$config"
        kubectl config get-contexts -o name --kubeconfig (string replace -r '^~' $HOME -- $config) 2>/dev/null
    else
        kubectl config get-contexts -o name 2>/dev/null
    end
end

complete -c ${p} -f
${lines.join('\n')}
`;
}
