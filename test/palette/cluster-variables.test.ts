/** `GET /v1/spectroclusters/{uid}/variables` read into the view the rules judge through. */
import { describe, expect, it } from 'vitest';
import { ClusterVariablesSchema } from '../../src/palette/variables.js';
import { variableView } from '../../src/values/profile-variables.js';

// The shape palette-sdk-go's spec 4.8 gives ([v1SpectroClusterVariables]), as the terraform provider's mock serves it.
const answer = ClusterVariablesSchema.parse([
  { profileUid: 'addon-2', variables: [{ name: 'region', value: 'us-east-1' }] },
  {
    profileUid: 'addon-1',
    variables: [
      { name: 'INGRESS_IP', displayName: 'Ingress address', format: 'ipv4', isSensitive: false, required: true, value: '10.1.0.50' },
      { name: 'ADMIN_PASSWORD', isSensitive: true, value: '********' },
      { name: 'REGION', isSensitive: false, defaultValue: 'east', value: '' },
    ],
  },
  { profileUid: 'infra-1', variables: null },
]);

describe('variableView', () => {
  it.each([
    ['INGRESS_IP', { name: 'INGRESS_IP', sensitive: false, value: '10.1.0.50' }],
    // Masked on every read: the value is never taken for the cluster's.
    ['ADMIN_PASSWORD', { name: 'ADMIN_PASSWORD', sensitive: true }],
    // An empty value is none set (the field is always sent): the default stands.
    ['REGION', { name: 'REGION', sensitive: false, defaultValue: 'east' }],
  ])('%s of the version addon-1', (name, expected) => expect(variableView(answer, 'addon-1').get(name)).toEqual(expected));

  it('only the named version\'s variables; a version with none, or not attached, gives an empty view', () => {
    expect([...variableView(answer, 'addon-2').keys()]).toEqual(['region']);
    expect(variableView(answer, 'infra-1').size).toBe(0);
    expect(variableView(answer, 'elsewhere').size).toBe(0);
  });
});
