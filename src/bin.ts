#!/usr/bin/env node
/**
 * The executable (the bundle's entry, `dist/cli.js`). It loads nothing before it has decided about
 * source maps: `process.setSourceMapsEnabled` only maps code loaded after it, and reading the maps
 * costs start-up time, so they are on only for error reports (`UPGRADE_PILOT_DEBUG=1`). Everything
 * else, the CLI included, is imported after that.
 */
if (process.env.UPGRADE_PILOT_DEBUG) process.setSourceMapsEnabled(true);
// (React's production build is chosen when bundling: process.env.NODE_ENV is compiled in.)

const { runFromProcess } = await import('./cli.js');
await runFromProcess();
