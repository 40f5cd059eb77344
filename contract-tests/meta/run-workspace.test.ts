/**
 * A run's own workspaces (docs/contract-tests.md#sharing-a-sandbox): two taken, both deleted by
 * `release` (the target's close, after the last case, passed or failed) and on SIGINT / SIGTERM, after
 * which the process exits as the signal would have made it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readWorkspaceLedger } from '../../src/cli/contract.workspaces.js';
import type { ControlClient, Workspace } from '../../src/client/index.js';
import { RUN_WORKSPACE_TTL_SECONDS, takeRunWorkspaces } from '../harness/run.workspace.js';

function fakeControl() {
  const live = new Set<string>();
  const ttls: Array<number | undefined> = [];
  let n = 0;
  const control = {
    async createWorkspace(input?: { ttl_seconds?: number }) {
      ttls.push(input?.ttl_seconds);
      const id = `ws-${++n}`;
      live.add(id);
      return { id, merchant: { id: `m-${n}` }, app: {}, customer: {} } as unknown as Workspace;
    },
    async deleteWorkspace(id: string) {
      live.delete(id);
    },
  };
  return { control: control as unknown as ControlClient, live, ttls };
}

afterEach(() => vi.restoreAllMocks());

describe("a run's workspaces", () => {
  it('are two, with a TTL as a backstop, and release deletes both once', async () => {
    const { control, live, ttls } = fakeControl();
    const before = process.listenerCount('SIGINT');
    const ws = (await takeRunWorkspaces(control))!;
    expect([...live]).toEqual([ws.main.id, ws.other.id]);
    expect(ttls).toEqual([RUN_WORKSPACE_TTL_SECONDS, RUN_WORKSPACE_TTL_SECONDS]);
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    await ws.release();
    await ws.release();
    expect(live.size).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });

  it('are listed in the ledger file until deleted, for the CLI to delete after a teardown', async () => {
    const { control, live } = fakeControl();
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    const ledger = join(dir, 'workspaces.json');
    const ws = await takeRunWorkspaces(control, RUN_WORKSPACE_TTL_SECONDS, ledger);
    expect(readWorkspaceLedger(ledger)).toEqual([ws?.main.id, ws?.other.id]);
    await ws?.release();
    expect(live.size).toBe(0);
    expect(existsSync(ledger)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('are deleted on %s, then the process exits %i', async (signal, code) => {
    const { control, live } = fakeControl();
    const exited = new Promise<number>((resolve) => {
      vi.spyOn(process, 'exit').mockImplementation(((c?: number) => resolve(c ?? 0)) as never);
    });
    await takeRunWorkspaces(control);
    expect(live.size).toBe(2);
    process.emit(signal, signal);
    expect(await exited).toBe(code);
    expect(live.size).toBe(0);
  });
});
