/**
 * In the TUI: when a gate opens after a long stretch without a key pressed, ring the terminal bell
 * and send the desktop-notification escape (the operator stepped away). Renders nothing; writes
 * only non-printing sequences, straight to the terminal, so Ink's frame is not disturbed.
 */
import { useInput } from 'ink';
import { useEffect, useRef } from 'react';
import type { ConfirmQueue } from '../screens/confirm-queue.js';
import { attentionSequence, unattended } from './terminal.js';

export interface GateAttentionProps {
  queue: Pick<ConfirmQueue, 'subscribe'>;
  afterMs: number;
  /** Writes to the terminal (only given when stdout is a TTY). */
  write: (sequence: string) => void;
  env: NodeJS.ProcessEnv;
  clusterName: string;
  now?: () => number;
}

export function GateAttention({ queue, afterMs, write, env, clusterName, now = Date.now }: GateAttentionProps): null {
  const lastKey = useRef(now());
  useInput(() => {
    lastKey.current = now();
  });
  useEffect(
    () =>
      queue.subscribe((request) => {
        if (!request || !unattended(lastKey.current, now(), afterMs)) return;
        write(attentionSequence(env, `upgrade-pilot: ${clusterName}`, `waiting for you: ${request.title}`));
      }),
    [queue, afterMs, write, env, clusterName, now],
  );
  return null;
}
