import { z } from 'zod';
import { isBase64DataUrl } from '../base64';

/** Base64 of the 8-byte PNG signature (\x89PNG\r\n\x1a\n): a data URL that does not start so is not a PNG. */
const PNG_BASE64_SIGNATURE = 'iVBORw0KGgo';
export const FEEDBACK_SCREENSHOT_MAX_CHARS = 8 * 1024 * 1024;

export const feedbackScreenshotSchema = z
  .string({ error: 'La capture d’écran doit être une image PNG' })
  .max(FEEDBACK_SCREENSHOT_MAX_CHARS, 'La capture d’écran dépasse 8 Mo')
  .refine((url) => url.startsWith(`data:image/png;base64,${PNG_BASE64_SIGNATURE}`) && isBase64DataUrl(url, ['image/png']), {
    error: 'La capture d’écran doit être une image PNG (data URL)',
  });

/** Feedback payload: the message is required, no length limit, the screenshot optional. */
export const feedbackInputSchema = z
  .object({
    message: z.string({ error: 'Veuillez entrer un message' }).trim().min(1, 'Veuillez entrer un message').meta({ label: 'Message' }),
    screenshot: feedbackScreenshotSchema.nullable().default(null).meta({ label: 'Capture d’écran' }),
  })
  .strict();
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;
