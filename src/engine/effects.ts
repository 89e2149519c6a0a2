/**
 * The effects a step may use: the only doors to the outside world. Injected, so the TUI, plain
 * mode, tests and rehearsals can each supply their own.
 */
import { EnvironmentError } from '../errors.js';
import type { Clock } from './clock.js';
import type { ConfirmFn } from './gate.js';
import type { MutationRequest } from './mutation.js';
import type { LogLine } from './state.js';

/**
 * The ports to the outside world (the profile API, the cluster). The engine names none: each is
 * declared by the adapter that implements it, which adds itself here with
 * `declare module '../engine/effects.js' { interface EffectPorts { palette: PaletteApi } }`.
 * All the engine knows of a port is that it changes anything only through its `execute`.
 */
export interface EffectPorts {}

export interface Effects extends EffectPorts {
  clock: Clock;
  confirm: ConfirmFn;
  log: (line: Omit<LogLine, 'at'>) => void;
}

/**
 * Stands in for an API that this session has no configuration for (e.g. the demo runbook). Its
 * methods answer with a rejected promise, as a real call would fail: a synchronous throw in the
 * middle of building several concurrent calls would leave the others' rejections unhandled.
 */
export function unavailable<T extends object>(what: string, hint: string): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      if (prop === 'then') return undefined;
      return () => Promise.reject(new EnvironmentError('env.unconfigured', `No ${what} is configured for this session.`, { hint }));
    },
  });
}

/**
 * The dry-run wrapper: in a rehearsal every mutation is recorded with its exact request and nothing
 * is sent. The engine's gateway records too; this is the second lock on the door, so even a bug
 * that reached `execute` directly could not change anything.
 */
export function withDryRun(effects: Effects, recorded: MutationRequest[]): Effects {
  const record = async (request: MutationRequest): Promise<void> => {
    recorded.push(request);
  };
  // Methods are bound to the real object so classes with private fields keep working behind the proxy.
  const intercept = <T extends object>(api: T): T =>
    new Proxy(api, {
      get(target, prop) {
        if (prop === 'execute') return record;
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const changes = (port: unknown): port is object => typeof port === 'object' && port !== null && typeof (port as { execute?: unknown }).execute === 'function';
  return Object.fromEntries(Object.entries(effects).map(([name, port]) => [name, changes(port) ? intercept(port) : port])) as unknown as Effects;
}
