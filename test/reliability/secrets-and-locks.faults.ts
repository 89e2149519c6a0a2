/** Secrets and locks, all of it (`npm run test:faults`): see support/secrets.ts. */
import { secretsSuite } from './support/secrets.js';

secretsSuite({ finish: true, allCommands: true });
