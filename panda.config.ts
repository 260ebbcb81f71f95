import { defineConfig } from '@pandacss/dev';
import { recipes, slotRecipes, staticRecipes } from './theme/recipes';

// Light and dark through semantic tokens: components name roles (bg.canvas, fg.muted…), never raw colours.
export default defineConfig({
  preflight: true,
  include: ['./src/client/**/*.{ts,tsx}'],
  exclude: [],
  outdir: 'styled-system',
  jsxFramework: 'react',
  conditions: {
    extend: {
      dark: '.dark &',
      light: '.light &',
    },
  },
  globalCss: {
    'html, body': {
      bg: 'bg.canvas',
      color: 'fg.default',
      fontFamily: 'var(--app-font, Karla), system-ui, sans-serif',
      WebkitFontSmoothing: 'antialiased',
    },
    '*:focus-visible': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
  },
  staticCss: { recipes: staticRecipes },
  theme: {
    extend: {
      recipes,
      slotRecipes,
      tokens: {
        colors: {
          brand: {
            50: { value: '#eef4ff' },
            100: { value: '#dbe6fe' },
            200: { value: '#bfd3fe' },
            300: { value: '#93b4fd' },
            400: { value: '#6090fa' },
            500: { value: '#3b6cf5' },
            600: { value: '#2551ea' },
            700: { value: '#1d3fd7' },
            800: { value: '#1e35ae' },
            900: { value: '#1e3289' },
          },
        },
        radii: { card: { value: '12px' } },
        // Layers, lowest to highest: sticky bars, backdrops, dialogs and drawers, toasts, tooltips.
        zIndex: {
          sticky: { value: 1100 },
          overlay: { value: 1300 },
          modal: { value: 1400 },
          toast: { value: 1700 },
          tooltip: { value: 1800 },
        },
        shadows: {
          card: { value: '0 1px 2px rgba(16, 24, 40, 0.06), 0 1px 3px rgba(16, 24, 40, 0.08)' },
          overlay: { value: '0 12px 32px rgba(16, 24, 40, 0.18)' },
        },
      },
      semanticTokens: {
        colors: {
          bg: {
            canvas: { value: { base: '#F7F7F7', _dark: '#121212' } },
            surface: { value: { base: '#FFFFFF', _dark: '#1E1E1E' } },
            subtle: { value: { base: '#F0F1F3', _dark: '#2A2A2A' } },
            muted: { value: { base: '#E6E8EB', _dark: '#333333' } },
          },
          fg: {
            default: { value: { base: '#1B1F24', _dark: '#ECEDEE' } },
            muted: { value: { base: '#5B6470', _dark: '#A1A7AE' } },
            subtle: { value: { base: '#6B7280', _dark: '#8B9097' } },
            onAccent: { value: '#FFFFFF' },
          },
          border: {
            default: { value: { base: '#DDE1E6', _dark: '#3A3A3A' } },
            strong: { value: { base: '#C4CAD1', _dark: '#4A4A4A' } },
          },
          accent: {
            default: { value: { base: '{colors.brand.600}', _dark: '{colors.brand.400}' } },
            hover: { value: { base: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
            /** Filled buttons: white text needs the darker blue in both themes (WCAG AA). */
            solid: { value: '{colors.brand.600}' },
            solidHover: { value: '{colors.brand.700}' },
            subtle: { value: { base: '{colors.brand.50}', _dark: 'rgba(96, 144, 250, 0.16)' } },
            fg: { value: { base: '{colors.brand.700}', _dark: '{colors.brand.300}' } },
          },
          success: { value: { base: '#1E7B45', _dark: '#4CC38A' } },
          successSubtle: { value: { base: '#E6F4EC', _dark: 'rgba(76, 195, 138, 0.16)' } },
          danger: { value: { base: '#C62828', _dark: '#FF6B6B' } },
          dangerSubtle: { value: { base: '#FDECEC', _dark: 'rgba(255, 107, 107, 0.14)' } },
          warning: { value: { base: '#A15C00', _dark: '#FFB547' } },
          warningSubtle: { value: { base: '#FFF4E0', _dark: 'rgba(255, 181, 71, 0.14)' } },
          neutralSolid: { value: { base: '#1F2328', _dark: '#EDEDED' } },
          neutralSolidFg: { value: { base: '#FFFFFF', _dark: '#121212' } },
        },
      },
    },
  },
});
