import { checkReceiverCommand } from './check-receiver.js';
import { clockCommand } from './clock.js';
import type { CliCommand } from './command.types.js';
import { contractCommand } from './contract.js';
import { deliveriesCommand } from './deliveries.js';
import { faultCommand } from './fault.js';
import { listenCommand } from './listen.js';
import { parityCommand } from './parity.js';
import { recordCommand } from './record.js';
import { replayCommand } from './replay.js';
import { triggerCommand } from './trigger.js';
import { workspaceCommand } from './workspace.js';

/** Sub-commands beyond start and fixtures (listen, trigger, clock, deliveries, fault, contract, check-receiver, parity, record, replay, workspace), each in its own module (their type: ./command.types.ts). */
export const commands: CliCommand[] = [
  listenCommand,
  triggerCommand,
  clockCommand,
  deliveriesCommand,
  faultCommand,
  contractCommand,
  checkReceiverCommand,
  parityCommand,
  recordCommand,
  replayCommand,
  workspaceCommand,
];
