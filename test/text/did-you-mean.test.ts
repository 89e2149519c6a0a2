/** "Did you mean ...?": the edit distance and the choice of the closest known word, as tables. */
import { describe, expect, it } from 'vitest';
import { closest, didYouMean, editDistance } from '../../src/text/did-you-mean.js';

describe('editDistance', () => {
  it.each<[string, string, number]>([
    ['plan', 'plan', 0],
    ['', 'plan', 4],
    ['plan', '', 4],
    ['plna', 'plan', 1], // two neighbours swapped: one edit
    ['parms', 'params', 1], // a letter left out
    ['paramss', 'params', 1], // one too many
    ['helthy', 'healthy', 1],
    ['kubeconfg', 'kubeconfig', 1],
    ['clusterColection', 'clusterCollection', 1],
    ['publsh', 'publish', 1],
    ['sitting', 'kitten', 3],
    ['abc', 'xyz', 3],
  ])('%s → %s: %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('closest', () => {
  const flags = ['runbook', 'params', 'kubeconfig', 'context', 'state-dir', 'api-key-file', 'json', 'help'];
  it.each<[string, readonly string[], string | undefined]>([
    ['parms', flags, 'params'],
    ['kubeconfg', flags, 'kubeconfig'],
    ['contxt', flags, 'context'],
    ['state-dri', flags, 'state-dir'],
    ['jsno', flags, 'json'],
    ['PARAMS', flags, 'params'], // case aside
    ['params', flags, undefined], // known: nothing to suggest
    ['zzz', flags, undefined], // nothing close
    ['x', ['vms', 'pods'], undefined], // a short word matches nothing far
    ['approve-restarts', ['approve', 'approve-restart', 'approve-all-restarts'], 'approve-restart'],
    ['plna', ['start', 'plan', 'diff'], 'plan'],
    ['helthy', ['healthy', 'skip-minor', 'degraded'], 'healthy'],
    ['clusterColection', ['baseUrl', 'projectUid', 'clusterCollection'], 'clusterCollection'],
    ['targe', ['target', 'hops', 'site'], 'target'],
    // Equally close: the earlier one in the list.
    ['spac', ['spec', 'space'], 'spec'],
  ])('%s among %j: %s', (word, known, expected) => {
    expect(closest(word, known)).toBe(expected);
  });
});

describe('didYouMean', () => {
  it('says the closest word in the form given, or nothing', () => {
    expect(didYouMean('parms', ['params', 'json'], (o) => `--${o}`)).toBe(' Did you mean --params?');
    expect(didYouMean('frobnicate', ['params', 'json'])).toBe('');
  });
});
