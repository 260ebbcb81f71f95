import { createCallerFactory, router } from '../trpc';
import { authRouter } from './auth';
import { settingsRouter } from './settings';
import { feedbackRouter } from './feedback';
import { systemRouter } from './system';
import { customersRouter } from './customers';
import { itemsRouter } from './items';
import { organizationRouter } from './organization';
import { searchRouter } from './search';
import { taxesRouter, unitsRouter } from './reference';

export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  feedback: feedbackRouter,
  system: systemRouter,
  customers: customersRouter,
  items: itemsRouter,
  organization: organizationRouter,
  search: searchRouter,
  taxes: taxesRouter,
  units: unitsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
