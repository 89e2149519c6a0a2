/**
 * Bad input, a sample (in `npm test`): one case of each kind from the corpus - the command line,
 * params and runbook files, key files, files that are not files or too large, alias bombs,
 * durations, keys that cannot be sent, damaged journals, refused credentials, unreachable and
 * impossible places, malformed and hostile answers, key destinations. The whole corpus (about a
 * hundred cases) is `npm run test:faults` (bad-input.faults.ts).
 */
import { casesNamed, corpusSuite } from './support/bad-input-cases.js';

export const SAMPLE = [
  'unknown option',
  'the key as a flag',
  'params key misspelt',
  'params file is a FIFO',
  'params file links to /dev/zero',
  'params file of 100 MB',
  'params alias bomb',
  'a timeout of 0s',
  'runbook unknown step kind',
  'key with a line break',
  'API key file of 100 MB',
  'API key refused, lab params',
  'cluster refuses the token (expired)',
  'kubeconfig without that context',
  'kubeconfig is a FIFO',
  'kubeconfig links to /dev/zero',
  'kubeconfig credential plugin not installed',
  'kubeconfig server speaks plain HTTP',
  'journal: a result for an unknown intent',
  'state folder under /proc (start)',
  'state folder unreadable (sessions)',
  'unknown profile uid (plan)',
  'profile API answer that never ends',
  'error body of 5 MB with terminal escapes',
  'server error echoing the key',
  'lab clock on another origin',
  'plain http to another host',
  'skipped-minor target',
];

corpusSuite('bad input, a sample: exit 2 or 4, what and where, no stack trace, no key, no control characters, no mutation', casesNamed(SAMPLE));
