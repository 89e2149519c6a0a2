/** The lab's scenarios by name. */
import { degradedScenario } from './degraded.js';
import { healthyScenario } from './healthy.js';
import { largeScenario } from './large.js';
import { lostCustomizationsScenario } from './lost-customizations.js';
import { noMultusScenario } from './no-multus.js';
import { noConvergeScenario } from './no-converge.js';
import { noProfileVersionScenario } from './no-profile-version.js';
import { rookCephScenario } from './rook-ceph.js';
import { rookCephNoPlacementScenario } from './rook-ceph-no-placement.js';
import { packErrorScenario } from './pack-error.js';
import { repaveScenario } from './repave.js';
import { skipMinorScenario } from './skip-minor.js';
import { tightScenario } from './tight.js';
import { defaultLargeSizes, type LabSizes, type ScenarioName, type ScenarioSpec } from './types.js';

export { scenarioNames, defaultLargeSizes, type LabSizes, type ScenarioName, type ScenarioSpec } from './types.js';

export function scenarioSpec(name: ScenarioName, sizes: Partial<LabSizes> = {}): ScenarioSpec {
  switch (name) {
    case 'healthy':
      return healthyScenario();
    case 'skip-minor':
      return skipMinorScenario();
    case 'lost-customizations':
      return lostCustomizationsScenario();
    case 'degraded':
      return degradedScenario();
    case 'large':
      return largeScenario({ ...defaultLargeSizes, ...sizes });
    case 'rook-ceph':
      return rookCephScenario();
    case 'repave':
      return repaveScenario();
    case 'pack-error':
      return packErrorScenario();
    case 'no-profile-version':
      return noProfileVersionScenario();
    case 'rook-ceph-no-placement':
      return rookCephNoPlacementScenario();
    case 'no-multus':
      return noMultusScenario();
    case 'no-converge':
      return noConvergeScenario();
    case 'tight':
      return tightScenario();
  }
}
