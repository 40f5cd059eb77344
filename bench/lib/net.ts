import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** One GET without keep-alive; resolves with the status, or 0 when the connection failed. */
export function probe(url: string, timeoutMs = 1000): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolve(0));
    req.end();
  });
}

/** Poll `url` every `everyMs` until it answers 200; rejects after `timeoutMs` or when `gone()` says the process died. */
export async function waitFor200(
  url: string,
  opts: { timeoutMs?: number; everyMs?: number; gone?: () => boolean } = {},
): Promise<void> {
  const deadline = performance.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if ((await probe(url)) === 200) return;
    if (opts.gone?.()) throw new Error(`the process behind ${url} exited`);
    if (performance.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${opts.timeoutMs ?? 30_000} ms`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 20));
  }
}

/** JSON over HTTP with fetch; throws with the body when the status is not the expected one. */
export async function json<T>(
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T };
}

/** Peak resident set size of a process in MiB (VmHWM from /proc, or the current RSS from ps). */
export function peakRssMiB(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(status);
    if (m) return Number(m[1]) / 1024;
  } catch {
    /* not Linux */
  }
  try {
    const kb = Number(
      execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim(),
    );
    return Number.isFinite(kb) && kb > 0 ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** Current resident set size in MiB (VmRSS), for sampling while under load. */
export function rssMiB(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return peakRssMiB(pid);
  }
}

/** CPU time (user + system) a process has used so far, in ms; null where /proc is not there. */
export function cpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Peak and current memory of a process from /proc (MiB): VmHWM, VmRSS and its anonymous and file parts. */
export function memoryMiB(pid: number): Record<string, number> | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const out: Record<string, number> = {};
    for (const key of ['VmHWM', 'VmRSS', 'RssAnon', 'RssFile']) {
      const m = new RegExp(`${key}:\\s+(\\d+)\\s+kB`).exec(status);
      if (m) out[key] = Math.round(Number(m[1]) / 102.4) / 10;
    }
    return out;
  } catch {
    return null;
  }
}
