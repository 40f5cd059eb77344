import { randomBytes, randomInt } from 'node:crypto';

/**
 * The credentials the sandbox issues (docs/design.md#control-api). They are secrets even in a sandbox:
 * drawn from the OS CSPRNG, never from the fixture faker. One generator for every way a credential is
 * made (a control create, a workspace, a restored snapshot), so they all look alike.
 */

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Lowercase base36 of `length` characters: merchant tokens, API keys and secrets. */
export function randomCredential(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE36[randomInt(36)];
  return out;
}

/** The length of each credential as the sandbox issues it. */
export const CREDENTIAL_LENGTH = {
  merchantToken: 40,
  bearerToken: 40,
  apiKey: 32,
  apiSecret: 48,
} as const;

/** An OAuth2 access token of an app: 192 random bits as 48 lowercase hex (a secret, unlike ids). */
export const newAccessToken = (): string => randomBytes(24).toString('hex');
