import { Box, Text } from 'ink';
import { ResumeHint } from './ResumeHint.js';

/** `q` asks first, and says the session is saved and how to come back. The app routes its keys (y/q quit, n/Esc stay). */
export function QuitConfirm({ resumeCommand, inProcessLab, tookSafe }: { resumeCommand: string; inProcessLab: boolean; tookSafe?: string | undefined }) {
  return (
    <Box flexDirection="column" borderStyle="double" paddingX={1}>
      <Text bold>Quit upgrade-pilot?</Text>
      {tookSafe ? <Text wrap="wrap">The gate took its safe option: {tookSafe}.</Text> : null}
      <ResumeHint command={resumeCommand} inProcessLab={inProcessLab} later />
      <Text>
        <Text bold>[y]</Text> Quit <Text bold>[n]</Text> Stay <Text dimColor>(Esc: stay)</Text>
      </Text>
    </Box>
  );
}
