export * from './problem';
export * from './taxcode';
export * from './series';
export * from './email';
export * from './date';
export * from './refid';
export * from './required';
export * from './series-choice';
