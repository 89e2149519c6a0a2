import { readFileSync } from 'node:fs';

/** The tool's version, from package.json (one level above both src/ and dist/). */
export const toolVersion: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
