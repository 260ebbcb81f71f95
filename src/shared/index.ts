// The shared core's public API: pure, isomorphic, no I/O. Imported by the server and the client alike.
export * from './money';
export * from './totals';
export * from './numbering';
export * from './currencies';
export * from './format';
export * from './pagination';
export * from './input';
export * from './status';
export * from './identifiers';
export * from './schemas/document';
export * from './schemas/settings';
export * from './schemas/currency';
export * from './schemas/style';
export * from './schemas/template';
export * from './schemas/customer';
export * from './schemas/organization';
export * from './schemas/filters';
