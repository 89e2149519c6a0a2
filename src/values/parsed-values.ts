/**
 * The process's parsed values documents: one bounded cache (4 M characters of values text: about
 * 25 Cilium-sized documents, 17 MB of heap) shared by the steps of this process, so the plan's
 * reading of each hop's orchestration pack values, the customize step's review rounds and hops,
 * and the clusters of a fleet (one coordinator process) read each pack version's values once.
 * `ComputeInput.parsed` passes another (tests).
 */
import { ValuesCache } from './values-cache.js';

export const parsedValues = new ValuesCache(4 * 2 ** 20);
