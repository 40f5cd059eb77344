/**
 * What the preflight meta-tests share: an in-process sandbox with the CONTRACT_* variables that reach it,
 * and a runner for the commands users type (`npm run contract`, `paysandbox contract`).
 */
import { spawn } from 'node:child_process';
import { packageRoot } from '../../src/spec/load.js';
import { createSandboxTarget } from '../harness/sandbox.target.js';
import type { Target } from '../harness/target.types.js';

/** The variables a url target needs, all set. */
export interface ContractEnv extends Record<string, string> {
  CONTRACT_BASE_URL: string;
  CONTRACT_API_KEY: string;
  CONTRACT_API_SECRET: string;
  CONTRACT_MERCHANT_TOKEN: string;
}

/** A sandbox target, and the CONTRACT_* variables of its first developer and merchant. */
export async function sandboxContractEnv(): Promise<{ target: Target; env: ContractEnv }> {
  const target = await createSandboxTarget();
  return {
    target,
    env: {
      CONTRACT_BASE_URL: target.info.baseUrl,
      CONTRACT_API_KEY: target.creds.apiKey,
      CONTRACT_API_SECRET: target.creds.apiSecret,
      CONTRACT_MERCHANT_TOKEN: target.creds.merchantToken,
    },
  };
}

/** Run a command in the package root (or `cwd`); collect its output and exit code. */
export function run(
  args: string[],
  extraEnv: Record<string, string>,
  cwd = packageRoot(),
): Promise<{ code: number; out: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VITEST') && !k.startsWith('CONTRACT_'),
    ),
  );
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...clean, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, out });
    });
  });
}
