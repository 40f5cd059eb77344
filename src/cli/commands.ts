import { checkReceiverCommand } from './check-receiver.js';
import { contractCommand } from './contract.js';
import { listenCommand } from './listen.js';
import { parityCommand } from './parity.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { triggerCommand } from './trigger.js';
import { workspaceCommand } from './workspace.js';

/** Sub-commands beyond start and fixtures (listen, trigger, contract, check-receiver, parity, record, replay, workspace), each in its own module. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** `paysandbox <name> --help`; without it the command prints its own. */
  help?: string;
  run(args: string[], env: Record<string, string | undefined>): Promise<number>;
}

export const commands: CliCommand[] = [
  listenCommand,
  triggerCommand,
  contractCommand,
  checkReceiverCommand,
  parityCommand,
  recordCommand,
  replayCommand,
  workspaceCommand,
];
