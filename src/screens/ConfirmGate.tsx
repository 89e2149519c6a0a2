import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import type { GateRequest } from '../engine/gate.js';
import type { GateView } from './keys/gate-model.js';
import { maxOffset } from './keys/scroll-model.js';
import { gatePinnedRows, gateRows } from './layout.js';
import { ScrollView } from './ScrollView.js';
import { colour } from './theme.js';
import { sanitizeText } from '../text/sanitize.js';
import { Para } from './Para.js';

/** Typing a hidden value (a profile variable): bullets only, then the same again to confirm. */
function SecretLines({ request, view }: { request: GateRequest; view: GateView }) {
  const red = colour('fail');
  const entry = view.secret!;
  const input = request.secretInputs?.[entry.index];
  const again = entry.first !== undefined;
  const problem = entry.problem === 'mismatch' ? 'The two did not match; type it again.' : entry.problem === 'empty' ? 'Type a value (Esc goes back).' : 'Hidden: never shown, logged or written.';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        {again ? 'Again, to confirm: ' : 'Type '}
        <Text bold>{sanitizeText(input?.name ?? '', { max: 80 })}</Text>
        {(request.secretInputs?.length ?? 0) > 1 ? ` (${entry.index + 1} of ${request.secretInputs!.length})` : ''}, Enter (Esc: back)
      </Text>
      <Text wrap="truncate-end">
        {'> '}
        {'•'.repeat(Math.min(entry.typed.length, 64))}
        <Text inverse> </Text>
      </Text>
      <Text wrap="truncate-end" {...(entry.problem && red ? { color: red } : {})} dimColor={!entry.problem}>
        {problem}
      </Text>
    </Box>
  );
}

export interface ConfirmGateProps {
  request: GateRequest;
  view: GateView;
  rehearsal: boolean;
  /** The box's width and the rows it may take. */
  width: number;
  height: number;
  /** Keys count (the guard time after the gate appeared has passed). */
  armed: boolean;
  /** Rows of the content, as measured; the app scrolls within them. */
  contentRows: number;
  onMeasure: (rows: number) => void;
  /** The step's own screen, under the gate's text inside the scrolling part. */
  children?: ReactNode;
  /** Items listed before the rest are counted. */
  maxItems?: number;
}

/** The content's visible rows: what the box leaves once its title, options and scroll line are placed. */
export function gateViewport(request: GateRequest, width: number, height: number, rehearsal: boolean): number {
  return Math.max(1, height - gatePinnedRows(request, width - 4, rehearsal));
}

/**
 * A gate: its title and its options pinned, what will happen in a window that scrolls between
 * them. A thin view: which key does what is the gate model's (keys/gate-model.ts), routed by the app.
 */
export function ConfirmGate({ request, view, rehearsal, width, height, armed, contentRows, onMeasure, children, maxItems = 200 }: ConfirmGateProps) {
  const amber = colour('warn');
  const red = colour('fail');
  const text = width - 4;
  const { title, options } = gateRows(request, text, rehearsal, view.focus);
  const viewport = gateViewport(request, width, height, rehearsal);
  const bounds = { total: contentRows, page: viewport };
  const offset = Math.min(view.scroll.offset, maxOffset(bounds));
  const items = request.items ?? [];
  const more = contentRows > viewport;
  const scrollLine = view.note ?? (more ? `rows ${offset + 1}-${Math.min(contentRows, offset + viewport)} of ${contentRows} · ↑↓ PgUp PgDn scroll` : ' ');
  return (
    <Box flexDirection="column" borderStyle="double" {...(amber ? { borderColor: amber } : {})} paddingX={1} width={width} flexShrink={0}>
      {title.map((row, i) => (
        <Text key={i} bold wrap="truncate-end">
          {row}
        </Text>
      ))}
      <ScrollView height={viewport} offset={offset} onMeasure={onMeasure}>
        {rehearsal ? <Para dimColor>This is what you would be asked. A rehearsal sends nothing, so no approval is needed.</Para> : null}
        {request.lines.map((line, i) => (
          <Para key={i}>
            {sanitizeText(line, { max: 2000 })}
          </Para>
        ))}
        {request.ifStopped ? <Para dimColor>If you stop here: {sanitizeText(request.ifStopped, { max: 2000 })}</Para> : null}
        {items.length > 0 ? (
          <Box flexDirection="column" marginTop={1}>
            {items.slice(0, maxItems).map((item, i) => (
              <Box key={i}>
                <Box flexShrink={0}>
                  <Text>{'  • '}</Text>
                </Box>
                <Para>{sanitizeText(item, { max: 500 })}</Para>
              </Box>
            ))}
            {items.length > maxItems ? <Text dimColor>{`  … and ${items.length - maxItems} more (all of them in the report)`}</Text> : null}
          </Box>
        ) : null}
        {(request.warnings ?? []).map((w, i) => (
          <Para key={i} {...(amber ? { color: amber } : {})}>
            ⚠ WARNING: {sanitizeText(w, { max: 2000 })}
          </Para>
        ))}
        {children ? (
          <Box flexDirection="column" marginTop={1}>
            {children}
          </Box>
        ) : null}
      </ScrollView>
      <Text dimColor wrap="truncate-end">
        {scrollLine}
      </Text>
      {view.secret ? (
        <SecretLines request={request} view={view} />
      ) : view.typing ? (
        <Box flexDirection="column">
          <Text wrap="truncate-end">
            Type <Text bold>{request.confirmText}</Text> to confirm, Enter to approve, Esc to go back:
          </Text>
          <Text wrap="truncate-end">
            {'> '}
            {view.typed}
            <Text inverse> </Text>
          </Text>
          <Text wrap="truncate-end" {...(red ? { color: red } : {})}>
            {view.mismatch ? `That does not match ${request.confirmText}; nothing was approved.` : ' '}
          </Text>
        </Box>
      ) : (
        options.map((rows, i) =>
          rows.map((row, j) => (
            <Text key={`${i}.${j}`} wrap="truncate-end" bold={i === view.focus && armed} dimColor={!armed}>
              {row}
            </Text>
          )),
        )
      )}
    </Box>
  );
}
