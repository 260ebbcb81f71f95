import { type ComponentType, lazy, useEffect, useState, useSyncExternalStore } from 'react';
import { whenIdle } from './when-idle';

/** A component fetched in its own chunk on first render, which can also be fetched ahead (hover, idle). */
export interface LazyPage<P extends object = object> {
  Component: ComponentType<P>;
  /** Starts the download without rendering; calling it again reuses the same download. Undefined if it failed. */
  preload: () => Promise<ComponentType<P> | undefined>;
  /** The component itself once downloaded: drawn directly, it shows in the same render instead of one tick later. */
  loaded?: () => ComponentType<P> | undefined;
  /** Called once the download ends, whoever started it; returns the unsubscribe. */
  subscribe?: (listener: () => void) => () => void;
}

/** A thenable that calls back at once: React.lazy then has its module in the same render instead of suspending. */
function settled<T>(value: T): Promise<T> {
  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, read by React.lazy only
  const thenable = { then: (onFulfilled: (value: T) => unknown) => void onFulfilled(value) };
  return thenable as unknown as Promise<T>;
}

/**
 * Each page comes in its own chunk, so the login page never downloads the editor, the designer or the charts.
 * `pick` names the export, since our pages use named exports and React.lazy wants a default one.
 */
export function lazyPage<M, P extends object = object>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyPage<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  let resolved: ComponentType<P> | undefined;
  const listeners = new Set<() => void>();
  const fetchComponent = () => {
    loading ??= load().then(
      (module) => {
        resolved = pick(module);
        for (const listener of listeners) listener();
        return resolved;
      },
      (error: unknown) => {
        // A failed download may be retried by a later preload (the network came back); the render shows the reload notice.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return {
    // Once downloaded (ahead, on hover or beside the session check), a first render reads it synchronously: a promise
    // would suspend it until the next microtask, and React then holds the revealed content back up to 300 ms after the
    // last fallback it drew.
    Component: lazy(() => (resolved ? settled({ default: resolved }) : fetchComponent().then((component) => ({ default: component })))),
    preload: () => fetchComponent().catch(() => undefined),
    loaded: () => resolved,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const noSubscription = () => () => undefined;

/**
 * The lazy component once downloaded, else undefined; every user re-renders when the download ends, whoever started
 * it (idle time, a hover). For a part whose stand-in draws until then (`useArkPart` below).
 */
export function useLoaded<P extends object>(part: LazyPage<P>): ComponentType<P> | undefined {
  return useSyncExternalStore(part.subscribe ?? noSubscription, () => part.loaded?.());
}

/**
 * A part a page can do without until used (a Select's list, a menu, a dialog), asked for by the user's action: a failed
 * download is tried once more (a brief network drop) before the part is said to be missing. Undefined if both failed.
 */
export function downloadPart<P extends object>(part: LazyPage<P>): Promise<ComponentType<P> | undefined> {
  return part.preload().then((component) => component ?? part.preload());
}

/**
 * The component to draw for `part` above its Suspense boundary: the downloaded one as soon as it is there, the lazy one
 * until then. The download ending re-renders the caller at once, whereas a suspended lazy component's own reveal is a
 * Suspense retry, which React holds back up to 300 ms after the last fallback it drew. The lazy one never showed
 * anything (it only suspended), so nothing is lost when the real one takes its place.
 */
export function useLazyComponent<P extends object>(part: LazyPage<P>): ComponentType<P>;
export function useLazyComponent<P extends object>(part: LazyPage<P> | undefined): ComponentType<P> | undefined;
export function useLazyComponent<P extends object>(part: LazyPage<P> | undefined): ComponentType<P> | undefined {
  const loaded = useSyncExternalStore(part?.subscribe ?? noSubscription, () => part?.loaded?.());
  return loaded ?? part?.Component;
}

/**
 * The kit's one way to keep Ark's machines out of a page's first download. A component that needs it comes in two
 * files: `components/ui/<name>.tsx`, the light wrapper pages import, and `ark-<name>.tsx`, Ark's component styled by
 * the theme's recipe, which only the wrapper loads, through `arkPart`, in a chunk of its own. Nothing of these parts is
 * open when a page first draws: the part downloads when the browser is idle (`useArkPart`), or at the wrapper's first
 * use (hover, focus, click, opening), whichever comes first; until then the wrapper draws its stand-in (or nothing, for
 * a closed dialog).
 */
export const arkPart = lazyPage;

/**
 * The Ark part (or a page's lazy form dialog, components/lazy-dialog.tsx) once downloaded, else undefined; asks for it
 * when the browser is idle. Every wrapper using it re-renders
 * when the download ends, whoever started it.
 */
export function useArkPart<P extends object>(part: LazyPage<P>): ComponentType<P> | undefined {
  const loaded = useLoaded(part);
  useEffect(() => (loaded ? undefined : whenIdle(() => void part.preload())), [loaded, part]);
  return loaded;
}

/** What a stand-in that holds its place spreads on its outermost element (`useArkPartAtRest`). */
export interface PointerHold {
  onPointerEnter: () => void;
  onPointerLeave: () => void;
}

/**
 * `useArkPart` for a stand-in the user presses (a checkbox, a tab): it gives way to the real part only while the pointer
 * is off it. Replaced between a press and its release, the release would land on another element and no click follow
 * (the browser sends it to their common parent): the user's tick would be lost. A pointer on it means a press may come;
 * the stand-in does the same work, so nothing waits meanwhile. A touch enters before it presses and leaves after.
 */
export function useArkPartAtRest<P extends object>(part: LazyPage<P>): [ComponentType<P> | undefined, PointerHold] {
  const loaded = useArkPart(part);
  const [pointed, setPointed] = useState(false);
  const hold = { onPointerEnter: () => setPointed(true), onPointerLeave: () => setPointed(false) };
  return [pointed ? undefined : loaded, hold];
}
