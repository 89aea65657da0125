/**
 * vitest's asymmetric matchers, typed `unknown`: vitest types them `any`, and the any rules refuse
 * an `any` placed in an object literal. Each is exactly vitest's own matcher, so a test asserts
 * what it did with `expect.stringMatching(…)` in the same place.
 */
import { expect } from 'vitest';

export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);
export const notStringMatching = (pattern: string | RegExp): unknown => expect.not.stringMatching(pattern);
export const stringContaining = (text: string): unknown => expect.stringContaining(text);
export const anyOf = (constructor: unknown): unknown => expect.any(constructor);
export const objectContaining = (expected: object): unknown => expect.objectContaining(expected);
export const arrayContaining = (expected: unknown[]): unknown => expect.arrayContaining(expected);
