import { Box, Text } from 'ink';
import { ResumeHint } from './ResumeHint.js';
import { Para } from './Para.js';

export const helpSections: Array<{ title: string; keys: Array<[string, string]> }> = [
  {
    title: 'Everywhere',
    keys: [
      ['?', 'show or hide this help'],
      ['q', 'quit (asks first and decides nothing: at a gate, Stay returns to it; Quit leaves it unanswered, exit 3)'],
      ['Ctrl+C', 'stop now; the session is saved, nothing is lost'],
      ['[ ]', 'look at the previous / next step'],
      ['f', 'follow the current step again (back to a waiting gate)'],
    ],
  },
  {
    title: 'At a gate',
    keys: [
      ['letter', 'the option with that letter, e.g. y, n, r, s'],
      ['← →', 'move between the options (never wraps round)'],
      ['Enter', 'the focused option (the safe one until you move)'],
      ['Esc', 'the safe option: never approves anything'],
      ['↑↓ j k', 'scroll what the gate says; PgUp PgDn a page, g G top and bottom'],
      ['', 'keys count only once a gate has been on screen for a moment'],
    ],
  },
  {
    title: 'Tables, diffs and panels',
    keys: [
      ['↑↓ j k', 'one row; PgUp PgDn a page; g G (Home End) top and bottom'],
      ['/', 'search (Enter finds, Esc cancels); n N the next or previous match'],
      ['← →', 'move between panels (preflight, verification)'],
      ['Enter', 'open or close the focused panel; a difference whole (a conflict: Enter again, its choices)'],
      ['Tab', 'customizations: switch between the packs and their differences'],
      ['c y', 'customizations: continue; with conflicts nobody decided, c lists them and y continues'],
    ],
  },
];

/** Keys, and what gates, modes and sessions mean. The app scrolls it when it is taller than the pane. */
export function HelpOverlay({ resumeCommand, inProcessLab }: { resumeCommand: string; inProcessLab: boolean }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Help</Text>
      {helpSections.map((s) => (
        <Box key={s.title} flexDirection="column">
          <Text bold>{s.title}</Text>
          {s.keys.map(([k, d], i) => (
            <Para key={i}>
              <Text bold>{k.padEnd(8)}</Text>
              {d}
            </Para>
          ))}
        </Box>
      ))}
      <Text> </Text>
      <Para>Gates: nothing that changes the cluster or a profile happens without your yes. Every VM restart is its own gate, with Skip focused by default.</Para>
      <Para>The badge at the top right says what a change reaches. LIVE: a real cluster and its profiles. LAB: only the embedded lab’s simulated Palette and cluster (nothing real). REHEARSAL (LAB REHEARSAL on a lab): nothing at all; every read is real, every change is only recorded.</Para>
      <Para>Times are this machine’s clock; what the lab’s simulated cluster measures is marked “lab time”.</Para>
      <Para>Every step is journaled before the next action.</Para>
      <ResumeHint command={resumeCommand} inProcessLab={inProcessLab} later />
      <Text dimColor>↑↓ scroll · ? or Esc close</Text>
    </Box>
  );
}
