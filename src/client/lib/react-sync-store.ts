// The router asks for `use-sync-external-store/shim`, a stand-in for React versions before 18 that it keeps as a fallback
// in every page's first download; vite.config.ts points it here: React's own hook, nothing more.
export { useSyncExternalStore } from 'react';
