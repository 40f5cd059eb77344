// What the parity, record and replay commands load on demand (one module: scripts/bundle.mjs keeps it
// out of the CLI bundle, so the other commands never pay for the engine or the in-process sandbox).
export { apiOperations, committedHistory, parityMarkdown } from './docs.js';
export { corpusFiles, loadEntries, responseText } from './har.js';
export { operationMatcher } from './operations.js';
export { startRecorder } from './record.proxy.js';
export { authOf } from './replay.js';
export { learnAccounts } from './replay.mapping.js';
export { moneyGuard } from './replay.money.js';
export { apiScope } from './replay.scope.js';
export { junitReport, textReport, totals } from './report.js';
export { committedInputs, replayAll, runParity, staleGaps } from './run.js';
export { inProcessTarget, urlTarget } from './target.js';
export { loadSpec } from '../spec/load.js';
