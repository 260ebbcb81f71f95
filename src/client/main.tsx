import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@fontsource/karla/400.css';
import '@fontsource/karla/600.css';
import '@fontsource/karla/700.css';
// The other fonts of the settings panel that ship with the app (downloaded by the browser only when chosen).
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/700.css';
import '@fontsource/figtree/400.css';
import '@fontsource/figtree/700.css';
import './index.css';
import { App, startOpeningPage } from './app';
import { applyDisplay } from './stores/display';
import { defined } from '../shared/defined';
import { checkParisRule } from '../shared/paris-date';
import { whenIdle } from './lib/when-idle';

// Zod is set up (French messages, no eval under the CSP) by lib/zod-setup.ts, loaded with the pages that use it: the
// login page draws without it.

const render = () =>
  createRoot(defined(document.getElementById('root'), 'document.getElementById(’root’)')).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
/**
 * How long the first render waits for the opened page's code and data (the HTML names both, so they are usually in by
 * then): drawn before them, the skeleton is drawn and then replaced, two renders and two layouts where one does. Past
 * this wait the skeleton draws anyway, as on a slow network.
 */
const FIRST_RENDER_WAIT_MS = 200;

// The theme, font and size apply before anything draws (the first render may wait for the page's code below): a dark
// page never shows light first.
applyDisplay();

void Promise.race([startOpeningPage(), new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]).then(render);

// Today in Paris is computed by the EU summer-time rule, which spares the page's first request the zone database;
// checked against it once the page has drawn (shared/paris-date.ts).
whenIdle(() => void checkParisRule());
