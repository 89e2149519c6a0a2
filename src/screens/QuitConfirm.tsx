import { Box, Text, useInput } from 'ink';

/** `q` asks first, and says the session is saved and how to come back. */
export function QuitConfirm({ sessionId, onQuit, onStay }: { sessionId: string; onQuit: () => void; onStay: () => void }) {
  useInput((input, key) => {
    if (input === 'y' || input === 'q') onQuit();
    else if (input === 'n' || key.escape) onStay();
  });
  return (
    <Box flexDirection="column" borderStyle="double" paddingX={1}>
      <Text bold>Quit upgrade-pilot?</Text>
      <Text wrap="wrap">
        The session is saved. Continue later with: <Text bold>upgrade-pilot resume {sessionId}</Text>
      </Text>
      <Text>
        <Text bold>[y]</Text> Quit <Text bold>[n]</Text> Stay <Text dimColor>(Esc: stay)</Text>
      </Text>
    </Box>
  );
}
