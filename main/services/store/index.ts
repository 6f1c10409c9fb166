export { openDatabase, checkMigrations, DATABASE_FILE_NAME, type Store, type OpenDatabaseOptions } from './store';
export { migrations, type Migration } from './migrations';
export { prepared } from './statements';
export { readPage } from './paging';
