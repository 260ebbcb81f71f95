import { proxy, subscribe } from 'valtio';

/** Kept in the browser under one key. */
export const DISPLAY_STORAGE_KEY = 'facturier.display';
export const WIDE_SCREEN = 960;

export type ThemeMode = 'light' | 'dark' | 'system';

export interface DisplaySettings {
  /** The theme in force (light or dark). */
  theme: 'light' | 'dark';
  /** What the user chose in the settings panel; 'system' follows prefers-color-scheme live. */
  theme_mode: ThemeMode;
  rail: boolean;
  drawer: boolean;
  sidebar: boolean;
  font_family: string;
  font_size: number;
}

const isWide = () => typeof window !== 'undefined' && window.innerWidth >= WIDE_SCREEN;

export function defaultDisplay(): DisplaySettings {
  const wide = isWide();
  return { theme: 'light', theme_mode: 'light', rail: wide, drawer: wide, sidebar: wide, font_family: 'Karla', font_size: 15 };
}

function load(): DisplaySettings {
  const defaults = defaultDisplay();
  try {
    const raw = localStorage.getItem(DISPLAY_STORAGE_KEY);
    if (!raw) return defaults;
    const saved = JSON.parse(raw) as Partial<DisplaySettings>;
    return { ...defaults, ...saved };
  } catch {
    return defaults; // unreadable storage: start from the defaults rather than fail
  }
}

export const display = proxy<DisplaySettings>(load());

subscribe(display, () => {
  try {
    localStorage.setItem(DISPLAY_STORAGE_KEY, JSON.stringify(display));
  } catch {
    /* private mode or full storage: the settings still apply for this visit */
  }
});

const prefersDark = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches;

export function setThemeMode(mode: ThemeMode) {
  display.theme_mode = mode;
  display.theme = mode === 'system' ? (prefersDark() ? 'dark' : 'light') : mode;
}

export function toggleTheme() {
  setThemeMode(display.theme === 'dark' ? 'light' : 'dark');
}

/** Applies theme, font and size to the root element now and on every change; follows the OS when in 'system'. */
export function applyDisplay(): () => void {
  const root = document.documentElement;
  const apply = () => {
    root.classList.toggle('dark', display.theme === 'dark');
    root.classList.toggle('light', display.theme !== 'dark');
    root.style.colorScheme = display.theme;
    root.style.fontSize = `${display.font_size}px`;
    root.style.setProperty('--app-font', display.font_family === 'system-ui' ? 'system-ui' : `"${display.font_family}"`);
  };
  apply();
  const unsubscribe = subscribe(display, apply);
  const media = window.matchMedia?.('(prefers-color-scheme: dark)');
  const onSystemChange = () => {
    if (display.theme_mode === 'system') setThemeMode('system');
  };
  media?.addEventListener('change', onSystemChange);
  if (display.theme_mode === 'system') setThemeMode('system');
  return () => {
    unsubscribe();
    media?.removeEventListener('change', onSystemChange);
  };
}
