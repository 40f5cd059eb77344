// One guard for the CLI and the suite: it lives with the CLI's commands.
export { assertNotProduction, isLoopbackHost } from '../../src/cli/production-guard.js';
// The rules `paysandbox replay` shares with the suite (base URL, pacing, references, opt-ins).
export {
  flag,
  intFromEnv,
  newRunId,
  pacedFetch,
  referenceMaker,
} from '../../src/cli/target-rules.js';
