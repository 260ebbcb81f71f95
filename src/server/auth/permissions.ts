/**
 * The table of what each procedure needs lives in shared/permissions.ts, so the screens hide exactly what this
 * server refuses: add a new procedure's entry there.
 */
export { MANAGERS_ONLY_READS, PERMISSIONS, PERMISSIONS_FILE } from '../../shared/permissions';
