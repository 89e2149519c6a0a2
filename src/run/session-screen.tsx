/**
 * The session's TUI: the App (and the gate bell) drawn with Ink for an interactive run, into the
 * lab's first frame when there is one. Its own module so that a run in plain or JSON mode (every
 * cluster of a fleet, `start` under CI) never loads Ink, React or Ink's WebAssembly layout engine:
 * in a fleet coordinator they were memory for a screen nothing draws.
 */
import { render, type Instance } from 'ink';
import { App, type AppController } from '../screens/App.js';
import { GateAttention, type GateAttentionProps } from '../notify/GateAttention.js';

export interface SessionScreenOptions {
  controller: AppController;
  attention: GateAttentionProps | undefined;
  /** An Ink instance already on the screen (the lab's first frame): the App is drawn into it. */
  ink: Instance | undefined;
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** Ink draws every frame whole (tests). */
  debug: boolean;
}

export function drawSession(o: SessionScreenOptions): Pick<Instance, 'unmount' | 'waitUntilExit'> {
  const tree = (
    <>
      <App controller={o.controller} />
      {o.attention ? <GateAttention {...o.attention} /> : null}
    </>
  );
  if (o.ink) {
    o.ink.rerender(tree);
    return o.ink;
  }
  return render(tree, { stdout: o.stdout, stdin: o.stdin, exitOnCtrlC: false, patchConsole: false, ...(o.debug ? { debug: true } : {}) });
}
