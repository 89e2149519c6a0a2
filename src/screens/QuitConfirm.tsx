import { Box, Text, useInput } from 'ink';
import { ResumeHint } from './ResumeHint.js';

/** `q` asks first, and says the session is saved and how to come back. */
export function QuitConfirm({ sessionId, inProcessLab, onQuit, onStay }: { sessionId: string; inProcessLab: boolean; onQuit: () => void; onStay: () => void }) {
  useInput((input, key) => {
    if (input === 'y' || input === 'q') onQuit();
    else if (input === 'n' || key.escape) onStay();
  });
  return (
    <Box flexDirection="column" borderStyle="double" paddingX={1}>
      <Text bold>Quit upgrade-pilot?</Text>
      <ResumeHint sessionId={sessionId} inProcessLab={inProcessLab} later />
      <Text>
        <Text bold>[y]</Text> Quit <Text bold>[n]</Text> Stay <Text dimColor>(Esc: stay)</Text>
      </Text>
    </Box>
  );
}
