import type { LoadedSpec, Operation } from '../../spec/load.js';
import type { StreamsDocumented } from './fuzz.check.js';
import { documentResolver, type Schema } from './schema.arbitrary.js';

/** What the fuzzer reads of the document beyond its operations: request bodies and event streams. */

/** The JSON schema of an operation's request body, if it takes one. */
export function bodySchemaOf(spec: LoadedSpec, op: Operation): Schema | undefined {
  if (!op.hasBody) return undefined;
  const raw = spec.document.paths?.[op.path]?.[op.method]?.requestBody as Schema | undefined;
  const body = raw?.$ref ? documentResolver(spec.document)(raw.$ref) : raw;
  return body?.content?.['application/json']?.schema as Schema | undefined;
}

/** Whether the document lists a `text/event-stream` answer for the operation and status. */
export function streamsOf(spec: LoadedSpec): StreamsDocumented {
  return (operationId, status, type = 'text/event-stream') => {
    const op = spec.byId.get(operationId);
    const responses =
      op &&
      (spec.document.paths?.[op.path]?.[op.method]?.responses as
        Record<string, { content?: Record<string, unknown> }> | undefined);
    return Boolean(responses?.[String(status)]?.content?.[type]);
  };
}
