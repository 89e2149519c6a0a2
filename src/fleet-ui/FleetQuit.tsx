import { Box, Text } from 'ink';
import { Para } from '../screens/Para.js';

/**
 * `q` on the fleet screen asks first, saying what each answer leaves. The first is a halt: nothing
 * new starts, applied clusters are watched to a safe point and the screen stays until they are. Once
 * halting, `q` asks whether to leave now: the rollouts being watched (`applied` then names those)
 * go on unwatched, recorded so, with the command that watches them again. The screen routes the keys
 * (y quit, n/Esc stay).
 */
export function FleetQuit({ mode, applied, running, resumeCommand, gate }: { mode: 'halt' | 'now'; applied: readonly string[]; running: number; resumeCommand: string; gate?: string | undefined }) {
  const names = applied.length ? applied.join(', ') : undefined;
  return (
    <Box flexDirection="column" borderStyle="double" paddingX={1}>
      <Text bold>{mode === 'halt' ? 'Halt the fleet?' : names ? 'Leave the applied clusters unwatched?' : 'Stop now?'}</Text>
      {mode === 'halt' && running === 0 ? (
        <Para>No cluster runs now: the fleet stops here, and no new cluster starts.</Para>
      ) : mode === 'halt' ? (
        <>
          <Para>No new cluster starts. Clusters whose change is not applied yet stop after their step: nothing more is sent to them.</Para>
          <Para>
            {names ? `Applied (${names}): ` : 'Applied clusters: '}watched to a safe point first (rollout reconciled, migrations, restarts by the flags and the stage policy or left at their gates, verification). The screen stays until then; q again leaves them unwatched.
          </Para>
        </>
      ) : names ? (
        <Para>
          {names}: their rollout goes on in Palette and KubeVirt with nobody watching; each is recorded as “applied, rollout continues unwatched”, and `{resumeCommand}` watches it again.
        </Para>
      ) : (
        <Para>No cluster is in its rollout now: each stops at its next safe point, saved; what waits at a gate stays there.</Para>
      )}
      {gate ? <Para>The gate “{gate}” stays unanswered: nothing is approved or declined.</Para> : null}
      <Para>The fleet goes on with: {resumeCommand}</Para>
      <Text>
        <Text bold>[y]</Text> {mode === 'halt' ? 'Halt' : 'Leave now'} <Text bold>[n]</Text> Stay <Text dimColor>(Esc: stay)</Text>
      </Text>
    </Box>
  );
}
