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
import { harvestAnswer } from './fuzz.harvest.js';
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
  const shuffled = itemAt(
    fc.sample(fc.shuffledSubarray(spec.operations, { minLength: spec.operations.length }), {
      seed: o.seed,
      numRuns: 1,
    }),
    0,
  );
  // Each round first makes things, then uses them, and resets last (the reset wipes every id made so
  // far): what a round creates is there for the operations of the same round that read or move it (a
  // control call on a new transfer, a read of a new invoice), lists first. A snapshot is exported before
  // the import that sends its document back, and a workspace deleted after the calls on its clock. The round's invoices then go through
  // their lifecycle in order: a payment (a partial one over the counter issues a reference number),
  // the counter confirmation of that reference, then cancel and expire (each needs an invoice still
  // pending, which the one before would have closed); all faults are cleared after one was deleted
  // (which needs one still there). The clock moves only at the end: an hour ahead
  // expires the round's invoices and settles its transfers, leaving nothing pending to pay or settle.
  // Within each part the order stays shuffled.
  const late = [
    ['exportSnapshot'], // a snapshot's document, which the import then sends back
    ['importSnapshot'],
    ['deleteWorkspace'], // after the calls on its clock
    ['payInvoice'],
    ['confirmCounterPayment'],
    ['cancelInvoice', 'expireInvoice', 'clearFaults'],
    ['advanceClock'],
    ['resetSandbox'],
  ];
  const part = (op: { operationId: string }) => {
    if (op.operationId === 'createWorkspace') return 0; // the round's snapshot is taken of it
    if (/^(create|place)/.test(op.operationId)) return 1;
    if (/^list/.test(op.operationId)) return 2; // what they answer (deliveries...) is there for the reads by id
    return late.findIndex((ids) => ids.includes(op.operationId)) + 4 || 3;
  };
  const ops = Array.from({ length: late.length + 4 }, (_, p) => p).flatMap((p) =>
    shuffled.filter((op) => part(op) === p),
  );
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
  let liveFaults = 0;
  let unsafeFault = false;
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
      afterSuccess(draft, wire, answer);
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
    if (unsafeFault || liveFaults > 10) {
      // Only never-firing faults (the valid ones: probability 0) may stay; others would inject errors.
      await control('DELETE', '/_sandbox/faults');
      world.forgetAll('fault');
      liveFaults = 0;
      unsafeFault = false;
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

  function afterSuccess(
    d: Draft,
    wire: WireRequest,
    answer: { access_token?: unknown; expires_at?: unknown } | undefined,
  ) {
    const id = d.op.operationId;
    const param = (name: string) => required(d.pathParams[name], `the path parameter ${name}`);
    if (d.op.auth === 'hmac' && d.auth === 'good') {
      const app = itemAt(world.apps, d.app % world.apps.length);
      world.accepted.set(app.key, {
        nonce: required(wire.headers['ACCESS_NONCE'], 'the nonce of the signed request'),
        method: wire.method,
        path: wire.url,
        body: wire.body ?? '',
      });
    }
    if (id === 'resetAppNonce') world.accepted.delete(param('api_key'));
    if (id === 'deleteWorkspace') world.workspaces.delete(param('workspace_id'));
    // Gone for good: no later valid request may count on them.
    if (id === 'deleteFault') world.forget('fault', param('fault_id'));
    if (id === 'clearFaults') world.forgetAll('fault');
    if (id === 'revokeAppToken') world.forget('accessToken', param('access_token'));
    if (id === 'createAppToken' && typeof answer?.access_token === 'string')
      world.addToken(param('api_key'), answer.access_token, String(answer.expires_at));
    if (id === 'resetSandbox') {
      world.accepted.clear();
      world.seedPools();
    }
    if (id === 'createFault') {
      liveFaults++;
      unsafeFault ||= d.kind !== 'valid';
    }
    if (id === 'clearFaults' || id === 'resetSandbox') liveFaults = 0;
    if (id === 'clearFaults' || id === 'resetSandbox') unsafeFault = false;
  }
}
