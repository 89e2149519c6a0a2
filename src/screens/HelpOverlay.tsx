import { Box, Text } from 'ink';
import { ResumeHint } from './ResumeHint.js';

const keys: Array<[string, string]> = [
  ['?', 'show or hide this help'],
  ['q', 'quit (asks first; the session is saved and can be resumed)'],
  ['Ctrl+C', 'stop now; the session is saved, nothing is lost'],
  ['[ ]', 'look at the previous / next step'],
  ['f', 'follow the current step again'],
  ['↑ ↓', 'move between options at a gate, scroll tables'],
  ['Enter', 'choose the focused option; expand a panel'],
  ['Esc', 'at a gate: the safe option (never approves anything)'],
];

/** Keys, and what gates, modes and sessions mean. */
export function HelpOverlay({ sessionId, inProcessLab }: { sessionId: string; inProcessLab: boolean }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Help</Text>
      {keys.map(([k, d]) => (
        <Text key={k}>
          <Text bold>{k.padEnd(8)}</Text>
          {d}
        </Text>
      ))}
      <Text> </Text>
      <Text wrap="wrap">Gates: nothing that changes the cluster or a profile happens without your yes. Every VM restart is its own gate, with Skip focused by default.</Text>
      <Text wrap="wrap">LIVE changes a real cluster; REHEARSAL reads everything and sends nothing; LAB runs against the embedded simulated Palette and cluster.</Text>
      <Text wrap="wrap">Every step is journaled before the next action.</Text>
      <ResumeHint sessionId={sessionId} inProcessLab={inProcessLab} later />
      <Text dimColor>Press ? or Esc to close.</Text>
    </Box>
  );
}
