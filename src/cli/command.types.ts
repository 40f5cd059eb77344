/** Sub-commands beyond start and fixtures (listen, trigger, contract, check-receiver), each in its own module. */
export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  /** `paysandbox <name> --help`; without it the command prints its own. */
  help?: string;
  run(args: string[], env: Record<string, string | undefined>): Promise<number>;
}
