/**
 * Which KubeVirt and CDI versions an orchestration pack's values deploy: the operator and CDI
 * image tags under `charts.<chart>.kubevirt.image.tag` / `charts.<chart>.cdi.image.tag`, else the
 * `virt-operator:` and `cdi-operator:` images the pack lists under `pack.content.images`.
 */
import { parseYamlValue } from '../../io/yaml-value.js';
import { valuesToJs } from '../../values/values-document.js';
import { parsedValues } from '../../values/parsed-values.js';

export interface ComponentVersions {
  kubevirt?: string;
  cdi?: string;
}

type Tree = Record<string, unknown>;
const isTree = (v: unknown): v is Tree => v !== null && typeof v === 'object' && !Array.isArray(v);

function chartTag(charts: Tree, component: 'kubevirt' | 'cdi'): string | undefined {
  for (const chart of Object.values(charts)) {
    if (!isTree(chart)) continue;
    const part = chart[component];
    const image = isTree(part) ? part.image : undefined;
    const tag = isTree(image) ? image.tag : undefined;
    if (typeof tag === 'string' && tag.trim()) return tag.trim();
  }
  return undefined;
}

function listedTag(doc: Tree, image: RegExp): string | undefined {
  const pack = doc.pack;
  const content = isTree(pack) ? pack.content : undefined;
  const images = isTree(content) ? content.images : undefined;
  if (!Array.isArray(images)) return undefined;
  for (const entry of images) {
    const ref = isTree(entry) ? entry.image : undefined;
    const m = typeof ref === 'string' ? image.exec(ref) : null;
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/**
 * The values as `yaml.parse` reads them: through the process's values cache when they are one
 * document the values parser takes (the customize step reads the same texts), else as before
 * (a text with a repeated key, several documents or a syntax error).
 */
function plainValues(values: string): unknown {
  try {
    const read = parsedValues.parse(values, 'the values');
    if (read.docs.length === 1) return valuesToJs(read)[0];
  } catch {
    // read below, as it always was
  }
  return parseYamlValue(values);
}

export function componentVersions(values: string | undefined): ComponentVersions {
  if (!values) return {};
  let doc: unknown;
  try {
    doc = plainValues(values);
  } catch {
    return {};
  }
  if (!isTree(doc)) return {};
  const charts = isTree(doc.charts) ? doc.charts : {};
  const kubevirt = chartTag(charts, 'kubevirt') ?? listedTag(doc, /\/virt-operator:([^\s@]+)$/);
  const cdi = chartTag(charts, 'cdi') ?? listedTag(doc, /\/cdi-operator:([^\s@]+)$/);
  return { ...(kubevirt ? { kubevirt } : {}), ...(cdi ? { cdi } : {}) };
}
