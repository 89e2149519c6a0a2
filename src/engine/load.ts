/**
 * Loading the runbook and the params file: YAML with positions, `${params.x}` references resolved,
 * every part validated (each step's `with:` by its own kind), errors pointing at file:line:col.
 * The runbook's schema is the caller's (a grammar composed above the engine: steps/runbook-schema.ts).
 */
import { createHash } from 'node:crypto';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { z } from 'zod';
import { ParamsSchema, type Params } from './params.js';
import { isGroup, type Runbook } from './runbook.js';
import type { StepRegistry } from './step-kind.js';
import { errorAt, parseYaml, readYamlFile, validate, type PathKey, type YamlSource } from './yaml-source.js';
import { readBoundedText } from '../io/bounded-read.js';
import { LIMITS } from '../io/limits.js';

export interface LoadedParams {
  params: Params;
  file: string;
}

export interface LoadedRunbook {
  runbook: Runbook;
  file: string;
  digest: string;
}

/**
 * What a runbook may hold beyond the frame the engine knows: the schema of the whole (the frame
 * with the sections of the layers above), and what that schema cannot say of a section (an id
 * given twice), as the first place it goes wrong.
 */
export interface RunbookGrammar {
  schema: z.ZodType<Runbook>;
  sectionsProblem(runbook: Runbook): { at: PathKey[]; message: string; hint: string } | undefined;
}

export { bundledRunbook } from './bundled-runbook.js';

export function loadParams(file: string): LoadedParams {
  const path = resolve(file);
  const src = readYamlFile(path, 'params file', LIMITS.paramsFile);
  const params = validate(src, ParamsSchema, 'params file', { hint: 'Fix the params file at the position shown (see params.example.yaml).' });
  // Paths inside the params file are relative to the file, not to wherever the tool was started.
  const base = dirname(path);
  const abs = (p: string | undefined) => (p === undefined || isAbsolute(p) ? p : resolve(base, p));
  const kubeconfig = abs(params.cluster.kubeconfig);
  const valuesDir = abs(params.valuesDir);
  const variables = Object.fromEntries(Object.entries(params.variables).map(([name, from]) => [name, 'file' in from ? { file: abs(from.file)! } : from]));
  return {
    file: path,
    params: {
      ...params,
      cluster: { ...params.cluster, ...(kubeconfig ? { kubeconfig } : {}) },
      ...(valuesDir ? { valuesDir } : {}),
      variables,
    },
  };
}

const whole = /^\$\{params\.([A-Za-z0-9_.-]+)\}$/;
const embedded = /\$\{params\.([A-Za-z0-9_.-]+)\}/g;

function lookupParam(params: unknown, dotted: string): { found: boolean; value: unknown } {
  let cur: unknown = params;
  for (const key of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(key in (cur as object))) return { found: false, value: undefined };
    cur = (cur as Record<string, unknown>)[key];
  }
  return { found: cur !== undefined, value: cur };
}

/** Replaces `${params.x}`: a whole scalar takes the param's value and type; inside text, its text. */
function substitute(src: YamlSource, value: unknown, params: Params | undefined, path: PathKey[]): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${params.')) return value;
    const resolveRef = (ref: string): unknown => {
      if (!params) {
        throw errorAt(src, path, 'runbook', `refers to \${params.${ref}} but no params file was given`, 'Pass the site parameters with --params FILE.');
      }
      const hit = lookupParam(params, ref);
      if (!hit.found) {
        throw errorAt(src, path, 'runbook', `refers to \${params.${ref}}, which the params file does not define`, 'Add it to the params file, or fix the reference.');
      }
      return hit.value;
    };
    const full = whole.exec(value);
    if (full) return resolveRef(full[1]!);
    return value.replace(embedded, (_m, ref: string) => {
      const v = resolveRef(ref);
      if (v !== null && typeof v === 'object') {
        throw errorAt(src, path, 'runbook', `embeds \${params.${ref}}, a mapping or list, inside text`, 'Use the reference as the whole value instead.');
      }
      return String(v);
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(src, v, params, [...path, i]));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(src, v, params, [...path, k])]));
  }
  return value;
}

export function loadRunbookAs(grammar: RunbookGrammar, file: string, params: Params | undefined, registry: StepRegistry): LoadedRunbook {
  const path = resolve(file);
  return parseRunbookAs(grammar, readBoundedText(path, { what: 'runbook', maxBytes: LIMITS.runbookFile }), path, params, registry);
}

/**
 * The last runbook parsed: a fleet's clusters run in one process and load the same runbook, each
 * with its own params, so its YAML is parsed once (the params are put in and checked per cluster).
 * The parsed document is only read from, never changed.
 */
let lastParsed: { file: string; text: string; src: YamlSource } | undefined;

export function parseRunbookAs(grammar: RunbookGrammar, text: string, file: string, params: Params | undefined, registry: StepRegistry): LoadedRunbook {
  const src = lastParsed && lastParsed.file === file && lastParsed.text === text ? lastParsed.src : parseYaml(text, file, 'runbook');
  lastParsed = { file, text, src };
  const resolved = substitute(src, src.value, params, []);
  const runbook = validate(src, grammar.schema, 'runbook', { value: resolved });

  const seen = new Map<string, PathKey[]>();
  const checkStep = (spec: { id: string; kind: string; with: Record<string, unknown> }, at: PathKey[], scope: string) => {
    const key = `${scope}${spec.id}`;
    if (seen.has(key)) throw errorAt(src, [...at, 'id'], 'runbook', `duplicate step id \`${spec.id}\``, 'Give every step a unique id.');
    seen.set(key, at);
    const kind = registry.get(spec.kind);
    if (!kind) {
      throw errorAt(src, [...at, 'kind'], 'runbook', `unknown step kind \`${spec.kind}\` (known: ${registry.names().join(', ')})`, 'Use one of the known step kinds.');
    }
    validate(src, kind.params, 'runbook', { value: spec.with, prefix: [...at, 'with'], hint: `Fix the parameters of the ${spec.kind} step.` });
  };
  runbook.steps.forEach((spec, i) => {
    if (isGroup(spec)) {
      if (seen.has(spec.id)) throw errorAt(src, ['steps', i, 'id'], 'runbook', `duplicate step id \`${spec.id}\``, 'Give every step a unique id.');
      seen.set(spec.id, ['steps', i]);
      spec.steps.forEach((s, j) => checkStep(s, ['steps', i, 'steps', j], `${spec.id}.`));
      // ifEmpty steps never run beside the hop steps (they expand to `hop.x`, those to `hop1.x`): their own scope.
      spec.ifEmpty.forEach((s, j) => checkStep(s, ['steps', i, 'ifEmpty', j], `${spec.id}.empty.`));
    } else {
      checkStep(spec, ['steps', i], '');
    }
  });
  const problem = grammar.sectionsProblem(runbook);
  if (problem) throw errorAt(src, problem.at, 'runbook', problem.message, problem.hint);
  return { runbook, file, digest: createHash('sha256').update(text).digest('hex').slice(0, 12) };
}
