import { describe, expect, it } from 'vitest';
import { initialState } from '../../src/engine/reducer.js';
import { buildReport } from '../../src/report/build.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { ReportData, ReportVm } from '../../src/report/model.js';
import { at, created, step } from '../support/state-fixtures.js';
import { storyState } from '../support/timeline-story.js';

const base = (): ReportData => buildReport({ ...initialState(created([step('a')])), run: { status: 'done', updatedAt: at(30), resumes: 0 } });
const beforeAppendix = (md: string) => md.split('\n## Appendix\n')[0]!;

describe('the Markdown report', () => {
  it('says when, who and every decision and stop first', () => {
    const md = renderMarkdown(buildReport(storyState()));
    expect(md).toContain('| Operator | tester@localhost; resumed by bob@jump |');
    expect(md).toMatch(/\| Ended \| 2026-11-22 04:00:44 UTC \(44s, of which 30s stopped between runs\) \|/);
    expect(md).toContain('- 04:00:07 stopped at a gate (restart) in a: Stopped at a gate awaiting approval: restart VM vms/web-1');
    expect(md).toContain('- 04:00:20 resumed by bob@jump with --approve-restart vms/web-1 (after 13s)');
    expect(md).toContain('- 04:00:23 ended unexpectedly in a: The run ended without recording a stop (the process was killed or crashed).');
    expect(md).toContain('| 04:00:05 | a | restart | vms/db-1 | skip: Skip (leave it on the old launcher, listed as outstanding) | operator, key s (tester@localhost) |');
    expect(md).toContain('| 04:00:43 | a | draft | Write the draft of vmo-core | decline: Not now (stop here, session saved) | operator, key n (tester@localhost) |');
  });

  it('folds image-tag-only diffs to one line per pack and the image hunks of the others, after the body', () => {
    const r = base();
    const imagesOnly = ['@@ -1,2 +1,2 @@', '-  tag: v1.2.0', '+  tag: v1.3.1'];
    r.hops = [{ index: 1, from: '4.4.10', to: '4.5.4', profiles: [] }];
    r.diffs = [
      { hop: 1, profile: 'vmo-core', pack: 'virtual-machine-orchestrator', from: '4.4.10', to: '4.5.4', added: 1, removed: 1, imageTagsOnly: true, patch: imagesOnly, truncated: false },
      { hop: 1, profile: 'vmo-core', pack: 'lb-metallb-helm', from: '0.14.9', to: '0.15.2', added: 2, removed: 2, imageTagsOnly: false, patch: [...imagesOnly, '@@ -9,2 +9,2 @@', '-  autoAssign: false', '+  autoAssign: true'], truncated: false },
    ];
    const md = renderMarkdown(r);
    expect(beforeAppendix(md)).not.toContain('tag: v1.2.0');
    expect(md).toContain('- hop 1, vmo-core / virtual-machine-orchestrator 4.4.10 → 4.5.4: image tags only, 2 line(s) (e.g. `tag: v1.2.0 → tag: v1.3.1`)');
    expect(md).toContain('#### hop 1, vmo-core / lb-metallb-helm 0.14.9 → 0.15.2 (+2 −2)\n\n_2 image/tag line(s) folded._\n\n```diff\n@@ -9,2 +9,2 @@\n-  autoAssign: false\n+  autoAssign: true\n```');
  });

  it('lists every restarted and outstanding VM with its detail, the first live migrations and the rest in the appendix; lab time is labelled', () => {
    const r = base();
    r.labTime = true;
    r.hops = [{ index: 1, from: '4.4.10', to: '4.5.4', profiles: [] }];
    const migrated: ReportVm[] = Array.from({ length: 25 }, (_, i) => ({ name: `vms/web-${String(i).padStart(2, '0')}`, hop: 1, fate: 'live-migrated', migration: { name: `vms/m${i}`, durationSeconds: 10 + i, source: 'n1', target: 'n2' } }));
    r.vms = [
      { name: 'vms/db-1', hop: 1, fate: 'restarted', sentAt: at(10), runningAt: at(12), downtimeSeconds: 63, downtimeFrom: 'vmi-deletion', backRunning: true },
      { name: 'vms/cache-1', hop: 1, fate: 'outstanding', reason: 'restart skipped (flag --skip-restart vms/cache-1)' },
      ...migrated,
    ];
    const md = renderMarkdown(r);
    const body = beforeAppendix(md);
    expect(body).toContain('VMs: 25 live-migrated (median 22s, longest 34s lab time), 0 evicted, 1 restarted (downtime median 1m03s, longest 1m03s lab time), 1 outstanding.');
    expect(body).toContain('| vms/db-1 | restarted | sent 04:00:10, running 04:00:12, down 1m03s lab time (from the VMI shutdown) |');
    expect(body).toContain('| vms/cache-1 | outstanding | restart skipped (flag --skip-restart vms/cache-1) |');
    expect(body).toContain('| vms/web-19 | live-migrated | migrated in 29s lab time, n1 → n2 |');
    expect(body).not.toContain('vms/web-20');
    expect(body).toContain('… and 5 more live-migrated VM(s): see the appendix.');
    expect(body).toContain('in this lab they are its simulated **lab time**');
    expect(md.split('\n## Appendix\n')[1]).toContain('| vms/web-24 | 34s | n1 | n2 |');
  });

  it('says where work outside any hop went, and the way back when nothing changed', () => {
    const r = base();
    r.vms = [{ name: 'vms/db-1', hop: null, fate: 'restarted', sentAt: at(10) }];
    r.rollback = [{ profile: 'vmo-core', version: '1.6.0', how: 'Nothing to go back to: no hop was planned, so vmo-core still runs 1.6.0.' }];
    const md = renderMarkdown(r);
    expect(md).toContain('## Recovery (no hop: the pack was already at the target)');
    expect(md).toContain('- **vmo-core**: version 1.6.0.\n  Nothing to go back to');
    expect(md).not.toContain('## Appendix');
  });
});
