import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../src/domain/checks/types.js';
import { junitXml, xmlText } from '../../src/report/junit.js';

const check = (id: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({ id, kind: id, title: `Check ${id}`, spec: '9.3.1', status, summary: `${id} summary`, evidence: [], durationMs: 1500, ...extra });

/** Every `<` opens a tag and every `&` starts one of the five entities: what an XML parser needs of text. */
function wellFormedText(xml: string): boolean {
  const text = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<\/?[a-z-]+(\s+[a-z-]+="[^"<]*")*\s*\/?>/g, '');
  return !/[<>]/.test(text) && !/&(?!(amp|lt|gt|quot|apos);)/.test(text) && /^[\t\n\r\u0020-\ud7ff\ue000-\ufffd]*$/u.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, 'x'));
}

describe('verify --junit', () => {
  it.each([
    ['a < b & "c" \'d\' > e', 'a &lt; b &amp; &quot;c&quot; &apos;d&apos; &gt; e'],
    ['red \u001b[31mPANEL\u001b[0m', 'red PANEL'],
    ['bell\u0007 and null\u0000 gone', 'bell and null gone'],
    ['lone \ud800 surrogate', 'lone  surrogate'],
    ['kept\ttab\nand newline', 'kept  tab\nand newline'],
  ])('escapes %j', (input, expected) => {
    expect(xmlText(input)).toBe(expected);
  });

  it('one test case per panel: red ones fail with their findings, unknown ones error, amber ones pass with output', () => {
    const xml = junitXml({
      name: 'upgrade-pilot verify vmo-prod-east',
      timestamp: '2026-11-22T04:00:00',
      results: [
        check('profiles', 'pass'),
        check('storage', 'fail', { summary: 'Storage cluster Degraded <px>', evidence: ['node vmo-worker-2: offline & unreachable'], remediation: 'Fix the "storage" node' }),
        check('network', 'unknown', { summary: 'could not read services' }),
        check('nodes', 'warn', { evidence: ['node n3 cordoned'] }),
      ],
    });
    expect(xml).toMatch(/<testsuites name="upgrade-pilot verify vmo-prod-east" tests="4" failures="1" errors="1" skipped="0" time="6\.000">/);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toContain('<testcase classname="upgrade-pilot.verify.profiles" name="Check profiles (9.3.1)" time="1.500" />');
    expect(xml).toContain('<failure message="Storage cluster Degraded &lt;px&gt;" type="red-panel">Storage cluster Degraded &lt;px&gt;\n- node vmo-worker-2: offline &amp; unreachable\nWhat to do: Fix the &quot;storage&quot; node</failure>');
    expect(xml).toContain('<error message="could not read services" type="not-checked">');
    expect(xml).toContain('<system-out>WARN: nodes summary\n- node n3 cordoned</system-out>');
    expect(wellFormedText(xml)).toBe(true);
  });
});
