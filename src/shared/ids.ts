import { randomUUID } from 'node:crypto';

export type IdFactory = () => string;

/** 32 lowercase hex characters: a UUID without dashes (sandbox.md §1). */
export const newId: IdFactory = () => randomUUID().replaceAll('-', '');

export const ID_PATTERN = /^[0-9a-f]{32}$/;
