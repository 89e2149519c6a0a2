import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { useRefState } from './use-ref-state.js';
import type { Choice, GateOption, GateRequest } from '../engine/gate.js';
import { colour } from './theme.js';

export interface ConfirmGateProps {
  request: GateRequest;
  onDecide: (choice: Choice) => void;
  isActive?: boolean;
  rehearsal?: boolean;
  /** Items shown before the list is cut (the rest are counted). */
  maxItems?: number;
}

/**
 * A gate: what will happen, labelled options with one-key shortcuts, the safe option focused by
 * default, Esc = the safe option, and optionally "type the name to confirm" before approving.
 */
export function ConfirmGate({ request, onDecide, isActive = true, rehearsal = false, maxItems = 12 }: ConfirmGateProps) {
  const safeIndex = Math.max(0, request.options.findIndex((o) => o.choice === request.safeChoice));
  const [focus, setFocus, focusRef] = useRefState(safeIndex);
  const [typing, setTyping, typingRef] = useRefState(false);
  // Enter must see every character typed before it (see useRefState).
  const [typed, setTyped, typedRef] = useRefState('');
  const [mismatch, setMismatch] = useState(false);

  const choose = (option: GateOption | undefined) => {
    if (!option) return;
    if (option.choice === 'approve' && request.confirmText && !rehearsal) {
      setTyping(true);
      setTyped('');
      setMismatch(false);
      return;
    }
    onDecide(option.choice);
  };

  useInput(
    (input, key) => {
      if (typingRef.current) {
        if (key.escape) {
          setTyping(false);
          return;
        }
        if (key.return) {
          if (typedRef.current === request.confirmText) onDecide('approve');
          else setMismatch(true);
          return;
        }
        if (key.backspace || key.delete) {
          setTyped((t) => t.slice(0, -1));
          return;
        }
        if (input && !key.ctrl && !key.meta) {
          setTyped((t) => t + input);
          setMismatch(false);
        }
        return;
      }
      if (key.upArrow) setFocus((f) => (f + request.options.length - 1) % request.options.length);
      else if (key.downArrow || key.tab) setFocus((f) => (f + 1) % request.options.length);
      else if (key.return) choose(request.options[focusRef.current]);
      else if (key.escape) choose(request.options[safeIndex]);
      else if (input) choose(request.options.find((o) => o.key === input.toLowerCase()));
    },
    { isActive },
  );

  const amber = colour('warn');
  const items = request.items ?? [];
  return (
    <Box flexDirection="column" borderStyle="double" {...(amber ? { borderColor: amber } : {})} paddingX={1}>
      <Text bold>
        {rehearsal ? '[REHEARSAL] ' : ''}GATE: {request.title}
      </Text>
      {rehearsal ? <Text dimColor>This is what you would be asked. A rehearsal sends nothing, so no approval is needed.</Text> : null}
      {request.lines.map((line, i) => (
        <Text key={i} wrap="wrap">
          {line}
        </Text>
      ))}
      {items.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {items.slice(0, maxItems).map((item, i) => (
            <Text key={i} wrap="truncate-end">
              {'  • '}
              {item}
            </Text>
          ))}
          {items.length > maxItems ? <Text dimColor>{`  … and ${items.length - maxItems} more`}</Text> : null}
        </Box>
      ) : null}
      {(request.warnings ?? []).map((w, i) => (
        <Text key={i} wrap="wrap" {...(amber ? { color: amber } : {})}>
          ⚠ WARNING: {w}
        </Text>
      ))}
      <Box flexDirection="column" marginTop={1}>
        {typing ? (
          <>
            <Text>
              Type <Text bold>{request.confirmText}</Text> to confirm, Enter to approve, Esc to go back:
            </Text>
            <Text>
              {'> '}
              {typed}
              <Text inverse> </Text>
            </Text>
            {mismatch ? <Text {...(colour('fail') ? { color: colour('fail')! } : {})}>That does not match {request.confirmText}; nothing was approved.</Text> : null}
          </>
        ) : (
          request.options.map((option, i) => (
            <Text key={option.key} {...(i === focus ? { bold: true } : { dimColor: false })}>
              {i === focus ? '❯ ' : '  '}[{option.key}] {option.label}
              {option.choice === request.safeChoice && request.options.length > 1 ? <Text dimColor> (safe default)</Text> : null}
            </Text>
          ))
        )}
      </Box>
    </Box>
  );
}
