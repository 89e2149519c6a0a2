/**
 * Helm reads values with a YAML 1.1 parser (go-yaml v2), where plain `on`, `yes`, `y`, `0755`,
 * `1_000` or `1:30` are booleans and numbers, while this tool parses YAML 1.2. A string the merge
 * writes must read as a string in both, so such words are quoted.
 */
const words = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|~|null|Null|NULL|<<|)$/;
const specialFloats = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
/** Checked with `_` removed, as go-yaml does before parsing numbers. */
const ints = /^[-+]?(?:0b[01]+|0o?[0-7]+|0x[0-9a-fA-F]+|[0-9]+)$/;
const floats = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const sexagesimal = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const timestamp = /^\d{4}-\d{1,2}-\d{1,2}(?:$|[Tt \t])/;

/** True when a plain scalar with this text would not read as this string under YAML 1.1. */
export function plainIsAmbiguousInYaml11(text: string): boolean {
  const digits = text.replaceAll('_', '');
  return words.test(text) || specialFloats.test(text) || ints.test(digits) || floats.test(digits) || sexagesimal.test(text) || timestamp.test(text);
}
