/**
 * Start-up of the installed CLI: `upgrade-pilot --help` (and `--version`) against the floor of any
 * Node program here, `node -e 0`, run alternately so a change of load hits all alike; and the same
 * `--help` with UPGRADE_PILOT_DEBUG=1, which turns the source maps on (what an error report costs).
 */
import { measure } from './measure.js';

export interface Startup {
  nodeFloor: number[];
  help: number[];
  version: number[];
  helpWithSourceMaps: number[];
}

export async function startupTimes(bin: string, runs: number): Promise<Startup> {
  const out: Startup = { nodeFloor: [], help: [], version: [], helpWithSourceMaps: [] };
  const time = async (cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
    const m = await measure(cmd, args, { noPeak: true, timeoutMs: 30_000, env: { UPGRADE_PILOT_DEBUG: '', ...env } });
    if (m.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${m.code}:\n${m.stderr}`);
    return m.wallMs;
  };
  // The first round warms the disk cache: not counted
  for (let i = 0; i <= runs; i++) {
    const floor = await time(process.execPath, ['-e', '0']);
    const help = await time(bin, ['--help']);
    const version = await time(bin, ['--version']);
    const maps = await time(bin, ['--help'], { UPGRADE_PILOT_DEBUG: '1' });
    if (i === 0) continue;
    out.nodeFloor.push(floor);
    out.help.push(help);
    out.version.push(version);
    out.helpWithSourceMaps.push(maps);
  }
  return out;
}
