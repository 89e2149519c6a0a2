/**
 * Profile version labels (spec 2.1): `<major>.<minor>.<patch>`, optionally followed by a suffix
 * (`1.3.0`, `1.3.0-rc.1`, `1.3.0+site`). Shared by the client's guard and the lab's PUT check so
 * both sides enforce the same rule.
 */
const VERSION_LABEL = /^\d+\.\d+\.\d+(?:[-+.]?[0-9A-Za-z][0-9A-Za-z.+-]*)?$/;

export const isVersionLabel = (label: string): boolean => VERSION_LABEL.test(label);

export const versionLabelRule = '<major>.<minor>.<patch> optionally followed by a suffix, e.g. 1.3.0 or 1.3.0-rc.1';
