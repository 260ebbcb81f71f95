import { z } from 'zod';

// The same French messages as the server for the shared schemas' built-in checks.
z.config(z.locales.fr());
// The server's Content-Security-Policy forbids eval: Zod's compiled checks would only try it, fail and fall back.
z.config({ jitless: true });

// Imported for this effect before any schema checks a value: routes.tsx loads it beside every page that validates
// as it draws; the sign-in pages' checks (routes/auth/auth-validation.ts) load it with their schemas, on first input.
