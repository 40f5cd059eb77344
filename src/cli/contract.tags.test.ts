import { describe, expect, it } from 'vitest';
import contractConfig from '../../contract-tests/vitest.config.js';
import { TAGS } from '../../contract-tests/harness/target.types.js';
import { CONTRACT_TAGS, tagsExpressionProblem } from './contract.tags.js';

const KNOWN = "the suite's tags are read, write, money, sandbox";

describe('the check of `paysandbox contract --tags` before anything runs', () => {
  it("knows the suite's own tags (those of its vitest config and its cases)", () => {
    expect(contractConfig.test?.tags?.map((t) => t.name)).toEqual([...CONTRACT_TAGS]);
    expect([...TAGS]).toEqual([...CONTRACT_TAGS]);
  });

  it.each([
    'read',
    'read || write',
    'read && !sandbox',
    '!money',
    '(read or write) and not money',
    'not sandbox',
    're*',
    '*',
    ' read ',
  ])('accepts %j', (expr) => {
    expect(tagsExpressionProblem(expr)).toBeUndefined();
  });

  it.each([
    ['raed', `unknown tag "raed"; ${KNOWN}`],
    ['read || wirte', `unknown tag "wirte"; ${KNOWN}`],
    ['!(read && monye)', `unknown tag "monye"; ${KNOWN}`],
    ['Read', `unknown tag "Read"; ${KNOWN}`],
    ['x*', `unknown tag "x*"; ${KNOWN}`],
    ['read ||', 'expected a tag but found the end'],
    ['read write', 'unexpected "write"'],
    ['(read', 'expected ")" but found the end'],
    ['read)', 'unexpected ")"'],
    ['&& read', 'expected a tag but found "&&"'],
    ['  ', `an empty expression; ${KNOWN}`],
  ])('refuses %j: %s', (expr, problem) => {
    expect(tagsExpressionProblem(expr)).toBe(problem);
  });
});
