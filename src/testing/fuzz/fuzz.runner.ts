import fc from 'fast-check';
import { loadSpec } from '../../spec/load.js';
import { compileValidators, type SpecValidators } from '../../spec/validators.js';
import { problemsOf } from './fuzz.check.js';
import { bodySchemaOf, streamsOf } from './fuzz.document.js';
import { extraCase, extraProblems } from './fuzz.extra.js';
import { invalidDraft } from './fuzz.invalid.js';
import { judgeRaw, rawCase } from './fuzz.raw.js';
import { send, toWire, type Draft, type WireRequest } from './fuzz.request.js';
import { validDraft } from './fuzz.valid.js';
import { afterSuccess, type LiveFaults } from './fuzz.after-success.js';
import { harvestAnswer } from './fuzz.harvest.js';
import { roundOrder } from './fuzz.order.js';
import { FuzzWorld } from './fuzz.world.js';
import { documentResolver, type Resolve } from './schema.arbitrary.js';
import { itemAt, required } from '../../shared/defined.js';
import type { FuzzFailure, FuzzOptions, FuzzReport } from './fuzz.report.js';

const excerpt = (s: string | undefined, n = 300) =>
  s === undefined ? undefined : s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;

/** One request per case, operations in a seeded round-robin so that every one is reached early. */
export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const spec = loadSpec();
  const validators: SpecValidators = compileValidators(spec);
  const resolve: Resolve = documentResolver(spec.document);
  const streams = streamsOf(spec);
  const world = new FuzzWorld(o.baseUrl, o.controlToken, o.fixtures);
  const ops = roundOrder(spec.operations, o.seed);
  const deadlineMs = o.deadlineMs ?? 10_000;
  const extraEvery = o.extraEvery ?? 12;
  const started = performance.now();
  const report: FuzzReport = {
    seed: o.seed,
    requests: 0,
    ms: 0,
    operations: {},
    operationsTotal: ops.length,
    extra: {},
    failures: [],
    repeatedFailures: 0,
    hang: false,
  };
  const seen = new Set<string>();
  const faults: LiveFaults = { live: 0, unsafe: false };
  let opTurn = 0;

  const fail = (f: FuzzFailure) => {
    const key = `${f.target} ${f.kind.replace(/\d+/g, 'N')} ${itemAt(f.problems, 0).replace(/\d+/g, 'N').slice(0, 80)}`;
    if (seen.has(key)) return void report.repeatedFailures++;
    seen.add(key);
    report.failures.push(f);
  };
  const control = (method: string, path: string) =>
    send(
      { method, url: o.baseUrl + path, headers: { 'x-sandbox-token': o.controlToken } },
      deadlineMs,
    );

  for (let i = 0; ; i++) {
    if (o.maxRequests !== undefined && report.requests >= o.maxRequests) break;
    if (o.maxMs !== undefined && performance.now() - started >= o.maxMs) break;
    const caseSeed = (Math.imul(o.seed, 1_000_003) + i) | 0;
    let target: string;
    let kind: string;
    let wire: WireRequest;
    let draft: Draft | undefined;
    if (i % (extraEvery * 4) === extraEvery * 2 - 1) {
      const c = itemAt(fc.sample(rawCase(world), { seed: caseSeed, numRuns: 1 }), 0);
      report.requests++;
      report.extra[c.surface] = (report.extra[c.surface] ?? 0) + 1;
      const verdict = await judgeRaw(o.baseUrl, c, deadlineMs);
      const request = { method: 'RAW', url: o.baseUrl, headers: {}, body: excerpt(c.text, 400) };
      if (verdict.problems.length)
        fail({
          seed: o.seed,
          index: i,
          target: c.surface,
          kind: 'raw',
          problems: verdict.problems,
          request,
          status: verdict.status,
          answer: verdict.head,
        });
      if (verdict.hang) {
        report.hang = true;
        break;
      }
      continue;
    }
    if (i % extraEvery === extraEvery - 1) {
      const c = itemAt(fc.sample(extraCase(world), { seed: caseSeed, numRuns: 1 }), 0);
      ({ surface: target, wire } = c);
      kind = 'extra';
      report.extra[target] = (report.extra[target] ?? 0) + 1;
    } else {
      // Counted apart from `i`: with `i` an operation count sharing a factor with `extraEvery` would
      // leave the operations at the extra cases' positions never sent.
      const round = Math.floor(opTurn / ops.length);
      const op = itemAt(ops, opTurn++ % ops.length);
      const bodySchema = bodySchemaOf(spec, op);
      const valid = validDraft(op, world, resolve, bodySchema);
      const invalid = valid.chain((v) => invalidDraft(v, resolve, bodySchema, world));
      // The first round sends every operation a valid request and the second an invalid one, so that
      // each gets both whatever the seed; later rounds mix them.
      const arb =
        round === 0
          ? valid
          : round === 1
            ? invalid
            : fc.oneof({ weight: 9, arbitrary: valid }, { weight: 11, arbitrary: invalid });
      draft = itemAt(fc.sample(arb, { seed: caseSeed, numRuns: 1 }), 0);
      if (draft.kind === 'valid' && draft.body !== undefined) {
        // The document's own validator decides: a generated body it refuses must be refused.
        const check = validators.forOperation(op.operationId).body;
        if (check && !check(draft.body))
          draft = { ...draft, kind: 'valid-by-generator-only', expect: 'reject' };
      }
      target = op.operationId;
      kind = draft.kind;
      wire = toWire(draft, world);
      const s = (report.operations[target] ??= {
        requests: 0,
        valid: 0,
        invalid: 0,
        succeeded: 0,
        statuses: {},
      });
      s.requests++;
      if (draft.expect === 'documented' && draft.kind === 'valid') s.valid++;
      else s.invalid++;
    }
    report.requests++;
    const res = await send(wire, deadlineMs);
    o.onRequest?.(
      `#${i} ${target} [${kind}] ${wire.method} ${wire.url.slice(0, 120)} → ${'status' in res ? `${res.status} in ${res.ms.toFixed(0)} ms` : JSON.stringify(res)}`,
    );
    const request = { ...wire, body: excerpt(wire.body) };
    if ('hang' in res) {
      fail({
        seed: o.seed,
        index: i,
        target,
        kind,
        problems: [`no answer within ${deadlineMs} ms (hang)`],
        request,
      });
      report.hang = true;
      break; // the server may be wedged: nothing after this would mean anything
    }
    if ('error' in res) {
      if (/header|ByteString/i.test(res.error)) continue; // the client refused to send it: not the server's doing
      fail({
        seed: o.seed,
        index: i,
        target,
        kind,
        problems: [`no answer: ${res.error}`],
        request,
      });
      continue;
    }
    const problems = draft ? problemsOf(draft, res, validators, streams) : extraProblems(res);
    if (problems.length)
      fail({
        seed: o.seed,
        index: i,
        target,
        kind,
        problems,
        request,
        status: res.status,
        answer: excerpt(res.text),
      });
    if (!draft) continue;
    const stats = required(report.operations[target], `the statistics of ${target}`);
    stats.statuses[res.status] = (stats.statuses[res.status] ?? 0) + 1;
    if (res.status >= 200 && res.status < 300) {
      stats.succeeded++;
      const answer = /^application\/json/.test(res.contentType) ? JSON.parse(res.text) : undefined;
      if (answer !== undefined) harvestAnswer(world, target, answer);
      afterSuccess(world, faults, draft, wire, answer);
    }
    if (draft.op.operationId === 'createFault' && res.status === 201) {
      // A fault's glob is matched against every later request: one with a long path must still be quick.
      report.requests++;
      report.extra['fault glob probe'] = (report.extra['fault glob probe'] ?? 0) + 1;
      const faultMethod = String((draft.body as { method?: string } | undefined)?.method ?? '*');
      const probe = {
        method: faultMethod === '*' ? 'GET' : faultMethod,
        url: `${o.baseUrl}/v1/invoices/${'a'.repeat(4000)}`,
        headers: { authorization: itemAt(world.merchantTokens, 0) },
      };
      const answer = await send(probe, deadlineMs);
      const glob = excerpt(wire.body, 700);
      if ('hang' in answer) {
        fail({
          seed: o.seed,
          index: i,
          target: 'fault glob probe',
          kind,
          problems: [`no answer within ${deadlineMs} ms after this fault (hang)`],
          request: { ...probe, body: glob },
        });
        report.hang = true;
        break;
      }
      if ('status' in answer && answer.status >= 500 && draft.kind === 'valid') {
        fail({
          seed: o.seed,
          index: i,
          target: 'fault glob probe',
          kind,
          problems: [`server error ${answer.status} after this fault`],
          request: { ...probe, body: glob },
        });
      }
    }
    if (faults.unsafe || faults.live > 10) {
      // Only never-firing faults (the valid ones: probability 0) may stay; others would inject errors.
      await control('DELETE', '/_sandbox/faults');
      world.forgetAll('fault');
      faults.live = 0;
      faults.unsafe = false;
    }
    if (o.onProgress && i % 200 === 199) o.onProgress(report);
  }
  // The ledger's rules hold after everything the run did (per currency, cached figures, bounds).
  const ledger = await control('GET', '/_sandbox/ledger/invariants');
  const verdict =
    'status' in ledger
      ? (JSON.parse(ledger.text) as { ok?: boolean; problems?: string[] })
      : undefined;
  if (!verdict?.ok) {
    const request = { method: 'GET', url: `${o.baseUrl}/_sandbox/ledger/invariants`, headers: {} };
    fail({
      seed: o.seed,
      index: report.requests,
      target: 'ledger invariants',
      kind: 'after the run',
      problems: verdict?.problems ?? ['no answer'],
      request,
    });
  }
  report.ms = performance.now() - started;
  return report;
}
