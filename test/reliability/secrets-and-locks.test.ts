/**
 * Secrets and locks, the sample in `npm test`: the lock refusal and takeover, then the upgrade up to
 * its next gate, and one run of each command (text or JSON), all searched for the key. The whole of
 * it (the upgrade to its end, every command in text and JSON) is secrets-and-locks.faults.ts.
 */
import { secretsSuite } from './support/secrets.js';

secretsSuite({ finish: false, allCommands: false });
