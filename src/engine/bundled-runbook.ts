/**
 * Where the runbooks shipped with the tool are (the build copies the folder beside the bundle). Its
 * own module, without the loader's schemas, so the lab's first frame can name the file cheaply.
 */
import { fileURLToPath } from 'node:url';

const runbooksFolder = new URL('../../runbooks/', import.meta.url);

/** The runbook shipped with the tool. */
export const bundledRunbook = (name = 'vmo-upgrade'): string => fileURLToPath(new URL(`${name}.yaml`, runbooksFolder));
