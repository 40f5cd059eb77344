import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { packageRoot } from '../spec/load.js';
import { parseLenient } from './lenient-parse.js';

/** The parts of HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) the parity tools read and write. */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarHeader[];
    queryString: HarHeader[];
    /** HAR 1.2: a body as `text`, or a form as `params` only (what some tools write). */
    postData?: {
      mimeType: string;
      text?: string;
      params?: Array<{ name: string; value?: string }>;
    };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarHeader[];
    content: {
      size: number;
      mimeType: string;
      text?: string;
      /** HAR 1.2: `base64` when `text` is the body base64-encoded. */
      encoding?: string;
      _truncated?: boolean;
      _textFormat?: string;
    };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _statusUnknown?: boolean;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  _evidence?: string;
  _truncated?: boolean;
  _partial?: boolean;
  _bodyUnknown?: boolean;
  _typeAmbiguous?: string[];
  _reconstructedJson?: string;
  _requestBodyUnknown?: boolean;
  _direction?: string;
  _urlTemplate?: boolean;
}

export interface HarLog {
  log: {
    version: string;
    creator: { name: string; version: string };
    comment?: string;
    entries: HarEntry[];
  };
}

/** One entry of one file, named `file.har#index` everywhere (reports, known gaps, docs). */
export interface LoadedEntry {
  key: string;
  /** The file name without `.har`: the operation family. */
  family: string;
  index: number;
  entry: HarEntry;
  /**
   * From the committed corpus (`parity/recorded/`): only its entries are excused by the operations'
   * accepted deviations, which were written about them; a user's own HAR is held to every difference.
   */
  corpus: boolean;
}

/** What was recorded as the answer, with the corpus' markers read. */
export interface RecordedAnswer {
  /** Undefined when the source gave no status (`_statusUnknown`, or status 0). */
  status: number | undefined;
  body:
    | { kind: 'json'; value: unknown; truncated: boolean; partial: boolean }
    | { kind: 'text'; text: string; partial: boolean }
    | { kind: 'none'; why: string };
  /** Paths (`invoice.note`) whose type the source's format erased. */
  typeAmbiguous: string[];
}

export function corpusDir(): string {
  return join(packageRoot(), 'parity', 'recorded');
}

/** The committed corpus: every `parity/recorded/*.har`, in name order. */
export function corpusFiles(dir = corpusDir()): string[] {
  if (!existsSync(dir))
    throw new Error(`the recorded corpus is not here (${dir}): give HAR files with --har`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .sort()
    .map((f) => join(dir, f));
}

/** Read HAR files; a file that is not HAR 1.2-shaped is an Error naming the file. */
export function loadEntries(files: string[]): LoadedEntry[] {
  const out: LoadedEntry[] = [];
  for (const file of files) {
    let har: HarLog;
    if (!existsSync(file)) throw new Error(`${file}: no such file`);
    try {
      har = JSON.parse(readFileSync(file, 'utf8')) as HarLog;
    } catch (err) {
      throw new Error(`${file}: not JSON (${(err as Error).message.split('\n')[0]})`);
    }
    if (!Array.isArray(har?.log?.entries))
      throw new Error(`${file}: not a HAR file (no log.entries)`);
    const family = basename(file).replace(/\.har$/i, '');
    const corpus = resolve(dirname(file)) === resolve(corpusDir());
    har.log.entries.forEach((entry, index) => {
      if (!entry?.request?.url || !entry.request.method)
        throw new Error(`${file}: entry ${index} has no request method and url`);
      out.push({ key: `${basename(file)}#${index}`, family, index, entry, corpus });
    });
  }
  return out;
}

/** The recorded answer's text: `content.text`, decoded when `content.encoding` is base64 (HAR 1.2). */
export function responseText(e: HarEntry): string {
  const { text, encoding } = e.response.content;
  if (!text) return '';
  return encoding?.toLowerCase() === 'base64' ? Buffer.from(text, 'base64').toString('utf8') : text;
}

/** The recorded request body: `postData.text`, or the form its `params` encode (HAR 1.2). */
export function requestText(e: HarEntry): string | undefined {
  const post = e.request.postData;
  if (post?.text !== undefined || !post?.params) return post?.text;
  return new URLSearchParams(post.params.map((p) => [p.name, p.value ?? ''])).toString();
}

const ERRORISH = /^(message-only|empty)$/;

/** The recorded answer of an entry, markers honoured (parity/recorded/README.md, "How to read an entry"). */
export function recordedAnswer(e: HarEntry): RecordedAnswer {
  const res = e.response;
  const status = res._statusUnknown || !res.status ? undefined : res.status;
  const typeAmbiguous = e._typeAmbiguous ?? [];
  const partial = e._partial === true;
  if (e._bodyUnknown)
    return { status, body: { kind: 'none', why: 'body not recorded' }, typeAmbiguous };
  if (e._reconstructedJson) {
    return {
      status,
      body: { kind: 'json', value: JSON.parse(e._reconstructedJson), truncated: false, partial },
      typeAmbiguous,
    };
  }
  const text = responseText(e);
  const format = res.content._textFormat ?? 'json';
  if (!text.trim() || format === 'empty')
    return { status, body: { kind: 'none', why: 'no body' }, typeAmbiguous };
  if (ERRORISH.test(format))
    return { status, body: { kind: 'text', text: text.trim(), partial }, typeAmbiguous };
  const truncated = e._truncated === true || res.content._truncated === true;
  const parsed = parseLenient(text);
  if (!parsed.ok)
    return { status, body: { kind: 'text', text: text.trim(), partial }, typeAmbiguous };
  return {
    status,
    body: { kind: 'json', value: parsed.value, truncated: truncated || parsed.truncated, partial },
    typeAmbiguous,
  };
}

export function header(headers: HarHeader[], name: string): string | undefined {
  return headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
}
