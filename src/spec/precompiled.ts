import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { oas31 } from 'openapi3-ts';

/**
 * Files `npm run build` generates from openapi/openapi.yaml (src/spec/precompile.ts), next to the
 * compiled modules: `dist/src/spec/generated/`. The YAML stays the source of truth: each file records
 * the SHA-256 of the YAML it came from and is ignored when the YAML differs (edited after the build).
 * Running from src/ (tests, tsx) there is no such directory, and everything is built at load.
 */
export const GENERATED_DIR = new URL('./generated/', import.meta.url);
export const DOCUMENT_FILE = 'openapi.json';
export const VALIDATORS_FILE = 'validators.cjs';

const require = createRequire(import.meta.url);

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The document parsed at build time, when it was parsed from exactly this YAML. */
export function readPrecompiledDocument(
  sourceSha256: string,
  dir: URL = GENERATED_DIR,
): oas31.OpenAPIObject | undefined {
  try {
    const file = JSON.parse(readFileSync(new URL(DOCUMENT_FILE, dir), 'utf8')) as {
      sourceSha256?: string;
      document?: oas31.OpenAPIObject;
    };
    return file.sourceSha256 === sourceSha256 ? file.document : undefined;
  } catch {
    return undefined;
  }
}

/** The generated module: `create(runtime)` returns the validators by export name. */
export interface ValidatorsModule {
  /** The fingerprint of what it was generated from (see `validatorsFingerprint`). */
  sourceSha256: string;
  create(runtime: object): Record<string, ValidateFunction>;
}

/**
 * The request validators generated at build time (Ajv standalone code), when they were generated
 * from the same sources (`fingerprint`: the YAML, validators.ts, Ajv) and include every validator
 * asked for; otherwise undefined (compile instead).
 */
export function loadPrecompiledValidators(
  fingerprint: string | undefined,
  names: string[],
  runtime: object,
  dir: URL = GENERATED_DIR,
): Record<string, ValidateFunction> | undefined {
  if (!fingerprint) return undefined;
  let mod: ValidatorsModule;
  try {
    mod = require(fileURLToPath(new URL(VALIDATORS_FILE, dir))) as ValidatorsModule;
  } catch {
    return undefined;
  }
  if (mod.sourceSha256 !== fingerprint) return undefined;
  let validators: Record<string, ValidateFunction>;
  try {
    validators = mod.create({ ...runtime, require });
  } catch {
    return undefined;
  }
  return names.every((n) => typeof validators[n] === 'function') ? validators : undefined;
}
