/**
 * The fixes and additions the review offers, once each: a rule's fix (by rule id, chosen for every
 * hop where it is offered) or another value neither side has (by its key). Pure.
 */
import { fixSettings } from '../../steps/customize/render-text.js';
import type { CustomizeOutput } from '../../steps/customize/types.js';

/** Something the drafts would hold that the site never had. */
export interface FixRow {
  id: string;
  title: string;
  where: string;
  what: string;
  effect: string;
}

export function fixRows(out: CustomizeOutput | undefined): FixRow[] {
  const rows = new Map<string, FixRow>();
  for (const h of out?.byHop ?? []) {
    for (const p of h.profiles) {
      for (const f of p.fixes) {
        const prev = rows.get(f.rule);
        const what = fixSettings(f, (v) => JSON.stringify(v)).replaceAll('`', '');
        rows.set(f.rule, { id: f.rule, title: f.title, where: prev ? `${prev.where}, ${h.index}` : `${f.pack}, hop ${h.index}`, what, effect: f.effect });
      }
      for (const a of p.additions.filter((x) => x.source === 'other')) {
        const id = `${h.index}/${p.role}/${a.pack}/${a.path}`;
        rows.set(id, { id, title: `a value neither side has (${a.pack})`, where: `${a.pack}, hop ${h.index}`, what: `${a.path} = ${JSON.stringify(a.value)}`, effect: a.what });
      }
    }
  }
  return [...rows.values()];
}
