/**
 * The values of profile variables a new pack version introduces (VMO 4.10's LOCAL_ADMIN_PASSWORD),
 * for one run, in memory only. They come from where the operator said (an environment variable or
 * a file: params `variables:` or `--variable NAME=env:VAR|file:PATH`) or are typed hidden at a gate
 * in the TUI. A request that carries one holds only a marker (`<value of NAME, not recorded>`):
 * that is what the journal, the report and the screens see; the value is put in at the moment the
 * request is sent (`withVariableValues`), so no file of the session ever holds it.
 */
import { readBoundedText } from '../io/bounded-read.js';
import { InputError } from '../errors.js';
import type { PaletteMutation } from '../engine/mutation.js';
import type { PaletteApi } from './api.js';

declare module '../engine/effects.js' {
  interface EffectPorts {
    /** Values of profile variables for this run (in memory only). */
    variables?: VariableValues;
  }
}

export type VariableSource = { env: string } | { file: string };

/** What a request holds where a variable's value goes. */
export const valueMarker = (name: string): string => `<value of ${name}, not recorded>`;
const markerRe = /^<value of ([A-Za-z_][A-Za-z0-9_]*), not recorded>$/;

/** The longest value read from a file or the environment (a password, a secret, never a document). */
const MAX_VALUE = 64 * 1024;

export interface VariableValuesOptions {
  /** Where each value comes from when it is not typed (params `variables:`, then `--variable`). */
  sources?: Readonly<Record<string, VariableSource>>;
  env?: NodeJS.ProcessEnv;
  /** The TUI can ask at a gate; plain mode cannot. */
  canAsk?: boolean;
  /** Called with every value learned (the session's redactor registers it). */
  onValue?: (value: string) => void;
}

export class VariableValues {
  private readonly values = new Map<string, string>();
  readonly canAsk: boolean;

  constructor(private readonly opts: VariableValuesOptions = {}) {
    this.canAsk = opts.canAsk ?? false;
  }

  /** Where the value of `name` would come from, in words; undefined when nothing says. */
  sourceOf(name: string): string | undefined {
    const s = this.opts.sources?.[name];
    if (!s) return undefined;
    return 'env' in s ? `the environment variable ${s.env}` : `the file ${s.file}`;
  }

  /** The value: typed earlier in this run, else read from its source; undefined when neither has it. */
  get(name: string): string | undefined {
    const known = this.values.get(name);
    if (known !== undefined) return known;
    const s = this.opts.sources?.[name];
    if (!s) return undefined;
    let value: string | undefined;
    if ('env' in s) {
      value = (this.opts.env ?? process.env)[s.env];
      if (value === undefined || value === '') {
        throw new InputError('variables.env-missing', `The value of ${name} should come from the environment variable ${s.env}, which is not set.`, {
          hint: `Set ${s.env} in the environment of upgrade-pilot (not on the command line), or name another source for ${name}.`,
        });
      }
      if (value.length > MAX_VALUE) throw new InputError('variables.too-long', `The value of ${name} in ${s.env} is longer than ${MAX_VALUE} characters.`, { hint: 'A profile variable holds a short value such as a password.' });
    } else {
      value = readBoundedText(s.file, { what: `file with the value of ${name}`, maxBytes: MAX_VALUE }).replace(/\r?\n$/, '');
      if (value === '') throw new InputError('variables.file-empty', `The file ${s.file} with the value of ${name} is empty.`, { hint: `Write the value of ${name} into ${s.file} (one line).` });
    }
    this.set(name, value);
    return value;
  }

  set(name: string, value: string): void {
    this.values.set(name, value);
    this.opts.onValue?.(value);
  }

  /** Whether a value is known or can be read without asking (a source that fails throws). */
  available(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

/** `body` with each marker replaced by its value; throws (nothing sent) when a value is not known. */
export function fillValues(body: unknown, values: VariableValues): unknown {
  if (typeof body === 'string') {
    const m = markerRe.exec(body);
    if (!m) return body;
    const value = values.get(m[1]!);
    if (value === undefined) {
      throw new InputError('variables.missing', `The value of the profile variable ${m[1]} is not known in this run, so the request that sets it was not sent.`, {
        hint: `Give its source (params variables: ${m[1]}: {env: NAME} or {file: PATH}, or --variable ${m[1]}=env:NAME), or resume in the TUI to type it.`,
      });
    }
    return value;
  }
  if (Array.isArray(body)) return body.map((x) => fillValues(x, values));
  if (body !== null && typeof body === 'object') return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fillValues(v, values)]));
  return body;
}

function holdsMarker(body: unknown): boolean {
  if (typeof body === 'string') return markerRe.test(body);
  if (Array.isArray(body)) return body.some(holdsMarker);
  if (body !== null && typeof body === 'object') return Object.values(body).some(holdsMarker);
  return false;
}

/**
 * The client, with markers filled in at the moment a request is sent. Everything else passes
 * through (bound to the real client, whose private fields a proxy would otherwise hide).
 */
export function withVariableValues(palette: PaletteApi, values: VariableValues): PaletteApi {
  return new Proxy(palette, {
    get(target, prop) {
      if (prop === 'execute') {
        return (request: PaletteMutation, signal?: AbortSignal) =>
          target.execute(holdsMarker(request.body) ? { ...request, body: fillValues(request.body, values) } : request, signal);
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
