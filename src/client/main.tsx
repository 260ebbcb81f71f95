import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import '@fontsource/karla/400.css';
import '@fontsource/karla/600.css';
import '@fontsource/karla/700.css';
// The other fonts of the settings panel that ship with the app (downloaded by the browser only when chosen).
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/700.css';
import '@fontsource/figtree/400.css';
import '@fontsource/figtree/700.css';
import './index.css';
import { App } from './app';
import { defined } from '../shared/defined';

// The same French messages as the server for the shared schemas' built-in checks.
z.config(z.locales.fr());
// The server's Content-Security-Policy forbids eval: Zod's compiled checks would only try it, fail and fall back.
z.config({ jitless: true });

createRoot(defined(document.getElementById('root'), 'document.getElementById(’root’)')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
