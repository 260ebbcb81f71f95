import { createCallerFactory, router } from '../trpc';
import { authRouter } from './auth';
import { settingsRouter } from './settings';
import { feedbackRouter } from './feedback';
import { systemRouter } from './system';

export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  feedback: feedbackRouter,
  system: systemRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
