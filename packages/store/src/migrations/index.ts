import type { Migration } from 'kysely';
import * as initial from './0001-initial.ts';

/**
 * Every migration, keyed by name, oldest first. Names are `NNNN-kebab-title`; kysely applies them in name
 * order and refuses to run a new migration whose name sorts before one already applied.
 */
export const migrations: Readonly<Record<string, Migration>> = Object.freeze({
  '0001-initial': initial,
});
