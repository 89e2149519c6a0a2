/**
 * Whether content read back from the profile API is what was sent, as Palette stores it. Palette
 * normalizes pack values on the server (the terraform provider compares them ignoring whitespace,
 * and notes reordered keys): a byte-for-byte comparison would call a draft that holds exactly what
 * was sent "not applied", and a resume would see it again. So: the same text once line endings and
 * trailing whitespace are normalized, or the same YAML data (key order aside, types kept: `"20"` is
 * not `20`). A changed value, a missing key or another list is still a difference.
 */
import { sameManifestContent } from '../io/yaml-same-content.js';

/** Line endings to `\n`, no whitespace at the end of a line, no blank lines around the text. */
export function normalizedText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** `held` (read back) holds what `sent` said: values or a manifest's content. */
export function sameStoredContent(held: string, sent: string): boolean {
  return held === sent || normalizedText(held) === normalizedText(sent) || sameManifestContent(held, sent);
}
