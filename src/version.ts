import { readFileSync } from 'node:fs';

/** Set by the bundler (scripts/build.mjs) to package.json's version; undefined when running from the sources. */
declare const UPGRADE_PILOT_VERSION: string | undefined;

/** The tool's version: compiled into the bundle; from the sources, read from package.json (one level above src/). */
export const toolVersion: string =
  typeof UPGRADE_PILOT_VERSION === 'string'
    ? UPGRADE_PILOT_VERSION
    : (() => {
        try {
          return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
        } catch {
          return '0.0.0';
        }
      })();
