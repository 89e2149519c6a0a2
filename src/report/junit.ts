/**
 * Verification panels as JUnit XML, so a pipeline that runs `verify` shows them as tests: one test
 * case per panel; a red panel is a failure carrying its findings and what to do; a panel that could
 * not be checked is an error; an amber one passes with its findings as output. Every string passes
 * the sanitizer and is escaped for XML (characters XML 1.0 cannot hold are dropped). Pure.
 */
import type { CheckResult } from '../domain/checks/types.js';
import { sanitizeText } from '../text/sanitize.js';

// XML 1.0 allows tab, newline, carriage return and most of the rest; not other C0 controls, lone
// surrogates, U+FFFE or U+FFFF.
const notXml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlText(s: string, max = 20_000): string {
  return sanitizeText(s, { max, multiline: true })
    .replace(notXml, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export interface JunitSuite {
  /** e.g. `upgrade-pilot verify vmo-prod-east` */
  name: string;
  timestamp: string;
  results: CheckResult[];
}

const secs = (ms: number) => (ms / 1000).toFixed(3);

function details(r: CheckResult): string {
  return [r.summary, ...r.evidence.map((e) => `- ${e}`), ...(r.remediation ? [`What to do: ${r.remediation}`] : [])].join('\n');
}

function testcase(r: CheckResult, suite: string): string[] {
  const name = `${r.title}${r.spec ? ` (${r.spec})` : ''}`;
  const open = `    <testcase classname="${xmlText(`${suite}.${r.kind}`, 200)}" name="${xmlText(name, 300)}" time="${secs(r.durationMs)}"`;
  if (r.status === 'pass') return [`${open} />`];
  if (r.status === 'fail') return [`${open}>`, `      <failure message="${xmlText(r.summary, 1_000)}" type="red-panel">${xmlText(details(r))}</failure>`, '    </testcase>'];
  if (r.status === 'unknown') return [`${open}>`, `      <error message="${xmlText(r.summary, 1_000)}" type="not-checked">${xmlText(details(r))}</error>`, '    </testcase>'];
  return [`${open}>`, `      <system-out>${xmlText(`WARN: ${details(r)}`)}</system-out>`, '    </testcase>'];
}

export function junitXml(s: JunitSuite): string {
  const count = (status: CheckResult['status']) => s.results.filter((r) => r.status === status).length;
  const time = secs(s.results.reduce((sum, r) => sum + r.durationMs, 0));
  const attrs = `name="${xmlText(s.name, 300)}" tests="${s.results.length}" failures="${count('fail')}" errors="${count('unknown')}" skipped="0" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites ${attrs}>`,
    `  <testsuite ${attrs} timestamp="${xmlText(s.timestamp, 40)}">`,
    ...s.results.flatMap((r) => testcase(r, 'upgrade-pilot.verify')),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
