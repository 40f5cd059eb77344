import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** How a stream ended: the server closed it, the connection failed, or it was refused with a status. */
export type SseEnd =
  | { kind: 'closed' }
  | { kind: 'error'; message: string; code?: string }
  | { kind: 'refused'; status: number; body: string }
  | { kind: 'stopped' };

/**
 * Parse a text/event-stream incrementally (the WHATWG rules that matter here: `event`, `data` (joined
 * by newlines), `id`, comment lines, a blank line ends a message; CRLF or LF).
 */
export function createSseParser(onMessage: (m: SseMessage) => void) {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;
  return (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer[nl] === '\r' ? 2 : 1));
      if (line === '') {
        if (data.length)
          onMessage({
            event: event || 'message',
            data: data.join('\n'),
            ...(id !== undefined ? { id } : {}),
          });
        event = '';
        data = [];
        id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  };
}

/**
 * Open one server-sent event stream with node:http (fetch would do, at the cost of web streams) and
 * hand each message to `onMessage`. `ended` resolves once, with why; `stop()` ends it from this side.
 */
export function openSse(
  url: string,
  headers: Record<string, string>,
  onMessage: (m: SseMessage) => void,
) {
  let settle!: (end: SseEnd) => void;
  const ended = new Promise<SseEnd>((resolve) => (settle = resolve));
  let done = false;
  const finish = (end: SseEnd) => {
    if (done) return;
    done = true;
    settle(end);
  };
  const u = new URL(url);
  const req: ClientRequest = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
    u,
    {
      method: 'GET',
      headers: { Accept: 'text/event-stream', 'Cache-Control': 'no-cache', ...headers },
    },
    (res) => {
      res.setEncoding('utf8');
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (c: string) => {
          if (body.length < 4096) body += c;
        });
        res.on('end', () => finish({ kind: 'refused', status: res.statusCode ?? 0, body }));
        res.on('error', () => finish({ kind: 'refused', status: res.statusCode ?? 0, body }));
        return;
      }
      const parse = createSseParser((m) => {
        if (!done) onMessage(m);
      });
      res.on('data', parse);
      res.on('end', () => finish({ kind: 'closed' }));
      res.on('error', () => finish({ kind: 'closed' }));
      res.on('close', () => finish({ kind: 'closed' }));
    },
  );
  req.on('error', (err: NodeJS.ErrnoException) =>
    finish({ kind: 'error', message: err.message, code: err.code }),
  );
  req.end();
  return {
    ended,
    stop(): void {
      finish({ kind: 'stopped' });
      req.destroy();
    },
  };
}
