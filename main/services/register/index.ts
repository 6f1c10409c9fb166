export { RegisterService, type RegisterServiceDeps } from './service';
export { RegisterRepository, searchKey } from './repository';
export { syncRange, refreshTaxStatus, STATUS_REFRESH_DAYS } from './sync';
