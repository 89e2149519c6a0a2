/**
 * Lists of scalars (feature gates, namespaces) are one value for the diff, but the operator needs
 * to see which items moved, and usually wants both the site's additions and the new version's:
 * `additionalFeatureGates` gains gates in a new version while the site added `SMM`.
 */
import { scalarEqual } from '../io/deep-equal.js';

export type ScalarItem = string | number | boolean | null;

export function isScalarList(value: unknown): value is ScalarItem[] {
  return Array.isArray(value) && value.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
}

function has(list: readonly ScalarItem[], item: ScalarItem): boolean {
  return list.some((x) => scalarEqual(x, item));
}

export function itemsNotIn(list: readonly ScalarItem[], other: readonly ScalarItem[]): ScalarItem[] {
  return list.filter((x) => !has(other, x));
}

/**
 * Item-level merge. With old defaults: the new list, minus items the site removed from the old
 * defaults, plus items the site added. Without: the new list plus the items only the site has
 * (a 2-way comparison cannot tell a site removal from a new item, so nothing is removed).
 */
export function mergeScalarLists(deployed: readonly ScalarItem[], oldDefault: readonly ScalarItem[] | undefined, newDefault: readonly ScalarItem[]): ScalarItem[] {
  const base = oldDefault ?? [];
  const removedBySite = oldDefault ? itemsNotIn(oldDefault, deployed) : [];
  const addedBySite = itemsNotIn(deployed, base);
  const kept = newDefault.filter((x) => !has(removedBySite, x));
  return [...kept, ...itemsNotIn(addedBySite, kept)];
}

function show(items: readonly ScalarItem[]): string {
  return items.map((x) => JSON.stringify(x)).join(', ');
}

/** "the site added "SMM"; the new version added "CPUManager"" and the like. */
export function describeListChange(deployed: readonly ScalarItem[], oldDefault: readonly ScalarItem[] | undefined, newDefault: readonly ScalarItem[]): string {
  const parts: string[] = [];
  if (oldDefault) {
    const siteAdded = itemsNotIn(deployed, oldDefault);
    const siteRemoved = itemsNotIn(oldDefault, deployed);
    const newAdded = itemsNotIn(newDefault, oldDefault);
    const newRemoved = itemsNotIn(oldDefault, newDefault);
    if (siteAdded.length) parts.push(`the site added ${show(siteAdded)}`);
    if (siteRemoved.length) parts.push(`the site removed ${show(siteRemoved)}`);
    if (newAdded.length) parts.push(`the new version added ${show(newAdded)}`);
    if (newRemoved.length) parts.push(`the new version removed ${show(newRemoved)}`);
  } else {
    const onlyDeployed = itemsNotIn(deployed, newDefault);
    const onlyNew = itemsNotIn(newDefault, deployed);
    if (onlyDeployed.length) parts.push(`only the deployed list has ${show(onlyDeployed)}`);
    if (onlyNew.length) parts.push(`only the new defaults have ${show(onlyNew)}`);
  }
  if (parts.length === 0) parts.push('same items in a different order');
  return parts.join('; ');
}
