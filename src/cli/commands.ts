import { checkReceiverCommand } from './check-receiver.js';
import { contractCommand } from './contract.js';
import { triggerCommand } from './trigger.js';

/** Sub-commands beyond start and fixtures (trigger, contract, check-receiver), each in its own module. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: string[], env: Record<string, string | undefined>): Promise<number>;
}

export const commands: CliCommand[] = [triggerCommand, contractCommand, checkReceiverCommand];
