import { Box, Text } from 'ink';
import { sanitizeText } from '../text/sanitize.js';
import { ResumeHint } from './ResumeHint.js';
import { Para } from './Para.js';

/**
 * `q` asks first: nothing is decided until the operator says so. It says what quitting leaves (the
 * open gate unanswered, the session saved) and how to come back. The app routes its keys (y/q
 * quit, n/Esc stay).
 */
export function QuitConfirm({ resumeCommand, inProcessLab, gate }: { resumeCommand: string; inProcessLab: boolean; gate?: string | undefined }) {
  return (
    <Box flexDirection="column" borderStyle="double" paddingX={1}>
      <Text bold>Quit upgrade-pilot?</Text>
      {gate ? (
        <Para>
          The gate “{sanitizeText(gate, { max: 200 })}” stays unanswered: nothing is approved or declined. Stay goes back to it.
        </Para>
      ) : null}
      <ResumeHint command={resumeCommand} inProcessLab={inProcessLab} later />
      <Text>
        <Text bold>[y]</Text> Quit <Text bold>[n]</Text> Stay <Text dimColor>(Esc: stay)</Text>
      </Text>
    </Box>
  );
}
