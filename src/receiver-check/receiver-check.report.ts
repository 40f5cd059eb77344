import { ms } from './receiver-check.grading.js';
import type { ReceiverReport } from './receiver-check.service.js';

/**
 * The readable report: a line per check, then a summary. What a correct handler does is printed
 * under a WARN or FAIL only; on a PASS it would just repeat what the handler already does.
 */
export function formatReport(r: ReceiverReport): string {
  const sent = r.checks.reduce((n, c) => n + c.requests.length, 0);
  const width = Math.max(...r.checks.map((c) => c.title.length)) + 2;
  const lines = [
    `Checking the callback handler at ${r.url}`,
    ...r.notes,
    `Run ${r.run_id}: ${sent} requests, timeout ${ms(r.timeout_ms)} each.`,
    '',
  ];
  for (const c of r.checks) {
    lines.push(`${c.grade}  ${c.title.padEnd(width)}${c.reason}`);
    if (c.grade === 'WARN' || c.grade === 'FAIL')
      lines.push(`${' '.repeat(6 + width)}a correct handler ${c.expected}`);
  }
  const { pass, warn, fail, info } = r.summary;
  const verdict =
    fail > 0
      ? 'fix the FAIL checks before going live'
      : warn > 0
        ? 'no check failed; read the warnings'
        : 'no check failed';
  lines.push('', `Summary: ${pass} PASS, ${warn} WARN, ${fail} FAIL, ${info} INFO: ${verdict}.`);
  return lines.join('\n');
}
