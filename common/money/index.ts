export * from './decimal';
export * from './currency';
export * from './vat';
export * from './formulas';
export * from './draft';
export * from './compute';
export * from './serialise';
export * from './issuing';
