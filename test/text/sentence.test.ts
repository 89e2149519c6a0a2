/** A sentence's end: never a full stop after a question mark (`upgrade it anyway?.`). */
import { describe, expect, it } from 'vitest';
import { sentence } from '../../src/text/sentence.js';

describe('sentence', () => {
  it.each<[string, string]>([
    ['Waiting for you now: Write draft', 'Waiting for you now: Write draft.'],
    ['vmo-prod-east is not healthy: upgrade it anyway?', 'vmo-prod-east is not healthy: upgrade it anyway?'],
    ['Stop!', 'Stop!'],
    ['Already ended.', 'Already ended.'],
    ['trailing space ', 'trailing space.'],
    ['an ellipsis…', 'an ellipsis…'],
  ])('%s', (text, out) => {
    expect(sentence(text)).toBe(out);
  });
});
