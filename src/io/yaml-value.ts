/**
 * `yaml.parse(text, { uniqueKeys: false })`'s answer, read by the YAML scanner when it reads the text
 * as one document (src/io/yaml-scan.ts: the same value, without the package's parser and its
 * start-up in a short command), else by the package itself: several documents, a repeated key (the
 * package keeps the last one), a form the scanner leaves, or an error, which the package words and throws.
 */
import { parse, type Node } from 'yaml';
import { scanYaml } from './yaml-scan.js';
import { scannedToJs } from './yaml-scan-nodes.js';

export function parseYamlValue(text: string): unknown {
  const docs = scanYaml(text);
  if (docs?.length === 1) return scannedToJs(docs[0]!.contents as Node | null);
  // uniqueKeys off: the library's check is quadratic in the keys of a mapping.
  return parse(text, { uniqueKeys: false });
}
