/** Copies the database file and its WAL into `folder` as the newest durable copy; returns its generation. */
export function snapshot(dbFile: string, folder: string): number;
/** After the writer was killed: the database becomes the newest durable copy (un-synced writes dropped); returns its generation. */
export function cutPower(dbFile: string, folder: string): number;
