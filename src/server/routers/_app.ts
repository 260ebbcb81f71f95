import { registerInputSchemas } from '../input-schemas';
import { parseSynchronously } from '../procedure-parsers';
import { createCallerFactory, router } from '../trpc';
import { authRouter } from './auth';
import { settingsRouter } from './settings';
import { feedbackRouter } from './feedback';
import { systemRouter } from './system';
import { customersRouter } from './customers';
import { itemsRouter } from './items';
import { organizationRouter } from './organization';
import { searchRouter } from './search';
import { documentsRouter } from './documents';
import { figuresRouter } from './figures';
import { shareRouter } from './share';
import { taxesRouter, unitsRouter } from './reference';
import { emailSettingsRouter } from './email-settings';
import { einvoicingRouter } from './einvoicing';
import { onlinePaymentRouter } from './online-payment';
import { currenciesRouter } from './currencies';
import { tagsRouter } from './tags';
import { auditRouter } from './audit';
import { exportsRouter } from './exports';
import { einvoiceRouter } from './einvoice';
import { ereportingRouter } from './ereporting';
import { expensesRouter } from './expenses';
import { recurringExpensesRouter } from './recurring-expenses';
import { documentMailRouter } from './document-mail';
import { remindersRouter } from './reminders';
import { recurringInvoicesRouter } from './recurring-invoices';
import { reportsRouter } from './reports';
import { appointmentsRouter } from './appointments';
import { membersRouter, organizationsRouter } from './members';
import { devicesRouter } from './devices';
import { apiKeysRouter } from './api-keys';
import { webhooksRouter } from './webhooks';
import { plansRouter, subscriptionRouter } from './subscription';
import { bankAccountsRouter, bankTransactionsRouter } from './bank';

export const appRouter = router({
  auth: authRouter,
  settings: settingsRouter,
  feedback: feedbackRouter,
  system: systemRouter,
  customers: customersRouter,
  items: itemsRouter,
  organization: organizationRouter,
  search: searchRouter,
  documents: documentsRouter,
  figures: figuresRouter,
  share: shareRouter,
  taxes: taxesRouter,
  units: unitsRouter,
  emailSettings: emailSettingsRouter,
  einvoicing: einvoicingRouter,
  ereporting: ereportingRouter,
  onlinePayment: onlinePaymentRouter,
  currencies: currenciesRouter,
  tags: tagsRouter,
  audit: auditRouter,
  exports: exportsRouter,
  einvoice: einvoiceRouter,
  expenses: expensesRouter,
  bankAccounts: bankAccountsRouter,
  bankTransactions: bankTransactionsRouter,
  recurringExpenses: recurringExpensesRouter,
  documentMail: documentMailRouter,
  reminders: remindersRouter,
  recurringInvoices: recurringInvoicesRouter,
  reports: reportsRouter,
  appointments: appointmentsRouter,
  members: membersRouter,
  organizations: organizationsRouter,
  devices: devicesRouter,
  apiKeys: apiKeysRouter,
  webhooks: webhooksRouter,
  plans: plansRouter,
  subscription: subscriptionRouter,
});

// The error formatter names invalid fields by walking the procedure's own input schema.
registerInputSchemas(appRouter);
parseSynchronously(appRouter);

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
