/** The orchestration pack's registry tags as the ladder takes them (domain/ladder/reference-sources.ts). */
import { describe, expect, it } from 'vitest';
import { registryLadder } from '../../../src/domain/ladder/reference-sources.js';

describe('registryLadder', () => {
  it.each([
    ['the exact tag', ['4.4.10', '4.5.4', 'latest'], '4.5.4', { versions: ['4.4.10', '4.5.4'], found: '4.5.4' }],
    ['the target written with a v', ['4.4.10', '4.5.4'], 'v4.5.4', { versions: ['4.4.10', '4.5.4'], found: '4.5.4' }],
    ['the exact spelling before another of the same version', ['v4.5.4', '4.5.4'], '4.5.4', { versions: ['v4.5.4', '4.5.4'], found: '4.5.4' }],
    ['no tag of the target', ['4.4.10', 'latest'], '4.6.0', { versions: ['4.4.10'], found: undefined }],
    ['a target only a non-version tag spells', ['latest'], 'latest', { versions: [], found: undefined }],
  ])('%s', (_what, tags, target, expected) => {
    expect(registryLadder(tags, target)).toEqual(expected);
  });
});
