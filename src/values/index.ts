/**
 * Customizations that survive a pack upgrade (spec 9.1.5, 9.2): the values diff, the merge into the
 * new defaults, the manifests the site added, and the customization rules. Pure functions only.
 */
export { formatPath, parsePath, parseConcretePath, isPattern, type PathSegment, type ValuesPath, type ItemKeyValue } from './path.js';
export { PatternSet, matchesPattern, coversPath } from './pattern.js';
export { parseValues, type ValuesDocument, type ValuesInput } from './values-document.js';
export { diffValues, diffLabels, emptyCounts, type DiffEntry, type DiffLabel, type DiffMode, type DiffValuesInput, type ValuesDiff } from './diff.js';
export { decide, defaultDecision, pendingConflicts, type Decision, type Decisions } from './decide.js';
export { applyCarryToJs, isRemoval, orderForMerge, type CarryItem } from './carry.js';
export { mergeValues, mergeValuesDocument, type MergeValuesInput } from './merge.js';
export { nodeAtPath } from './node-path.js';
export {
  diffManifests,
  decideManifests,
  mergeManifests,
  type Manifest,
  type ManifestCarry,
  type ManifestDecision,
  type ManifestDiff,
  type ManifestDiffEntry,
  type ManifestLabel,
} from './manifests.js';
export { evaluateRule, findLiteralCidr, isTemplateVariable, type RuleInput, type RuleResult, type RuleStatus } from './rules.js';
export { resolvePattern, type PathMatch } from './resolve.js';
export { RuleAssertion, RuleSpecSchema, type RuleSpec } from './rule-schema.js';
export { ValuesSettingsSchema, type ValuesSettings, type ValuesSettingsInput } from './settings-schema.js';
export { describeKind, showValue } from './describe.js';
