import { Text } from 'ink';
import { Para } from './Para.js';

/**
 * How to continue a stopped session: a command that works when pasted (it carries --state-dir
 * when the sessions are not in the default place). A session against the in-process lab
 * (`npm start`) cannot be resumed once the process ends (its lab ends with it), and saying
 * otherwise would mislead.
 */
export function ResumeHint({ command, inProcessLab, later = false }: { command: string; inProcessLab: boolean; later?: boolean }) {
  if (inProcessLab) {
    return (
      <Para>
        The session is journaled, but this lab lives in this process and ends with it. To practise stopping and resuming, serve a lab that stays up:{' '}
        <Text bold>upgrade-pilot lab --serve --state-dir DIR</Text>, then <Text bold>upgrade-pilot start --params DIR/params.yaml</Text>.
      </Para>
    );
  }
  return (
    <Para>
      The session is saved. Continue{later ? ' later' : ''} with: <Text bold>{command}</Text>
    </Para>
  );
}
