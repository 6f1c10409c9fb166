export * from './wire';
export * from './invoice';
export * from './download';
export * from './email';
export * from './template';
export * from './issuing';
export * from './correction';
