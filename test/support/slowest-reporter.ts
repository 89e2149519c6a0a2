/**
 * Prints, at the end of a run, the suite's wall time and its ten slowest files (each with the time
 * its tests took and the time importing it took), so a slow test is seen the day it lands. With
 * `UP_TEST_DURATIONS=FILE` it also writes every file's duration as JSON: the sequencer's table
 * (`test/support/durations.json`) is refreshed from it.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export default class SlowestReporter implements Reporter {
  private root = process.cwd();
  private started = Date.now();

  onInit(ctx: Vitest): void {
    this.root = ctx.config.root;
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      return { file: relative(this.root, m.moduleId), seconds: d.duration / 1000, importSeconds: d.collectDuration / 1000 };
    });
    rows.sort((a, b) => b.seconds + b.importSeconds - (a.seconds + a.importSeconds));
    const wall = (Date.now() - this.started) / 1000;
    const lines = [`Suite wall time ${wall.toFixed(1)} s, ${rows.length} files; the ten slowest (tests + import):`];
    for (const r of rows.slice(0, 10)) lines.push(`  ${(r.seconds + r.importSeconds).toFixed(1).padStart(6)} s  ${r.file} (import ${r.importSeconds.toFixed(1)} s)`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
    const out = process.env.UP_TEST_DURATIONS;
    if (out) {
      const table = Object.fromEntries([...rows].sort((a, b) => a.file.localeCompare(b.file)).map((r) => [r.file, Math.round((r.seconds + r.importSeconds) * 10) / 10]));
      writeFileSync(out, `${JSON.stringify(table, null, 2)}\n`);
    }
  }
}
