// The settings form's check, in its own chunk: the schema (and zod with it) is not needed to draw the saved settings,
// only to send them; it comes when the browser is idle or at the first change (general-settings-page.tsx).
export { appSettingsSchema } from '../../../shared/schemas/settings';
export { fieldMessages } from '../../../shared/validation-messages';
