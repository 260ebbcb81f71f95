import { roleCan, type Capability, type Role } from './roles';

/**
 * What each procedure needs: the one table the tRPC middleware reads for both doors (tRPC and REST go
 * through the same procedures), and the one the screens read to hide what a role cannot do (client/lib/use-can.ts).
 * Pure data, no server import, so both sides load it. `public`: no session at all (the procedure is a
 * publicProcedure). Every procedure of the router must appear here — tests/unit/permissions-table.test.ts walks the
 * router and fails on a missing path, and the middleware refuses a path it does not find (fail closed).
 */
const TABLE = {
  // Account: anyone, logged in or not.
  'auth.register': 'public',
  'auth.login': 'public',
  'auth.logout': 'public',
  'auth.me': 'public',
  'auth.forgotPassword': 'public',
  'auth.resetPassword': 'public',
  'auth.verifyEmail': 'public',
  'auth.invitation': 'public',
  'auth.acceptInvitation': 'public',
  'share.get': 'public',
  'share.quote': 'public',
  'share.accept': 'public',
  'share.refuse': 'public',
  'system.version': 'public',
  'system.health': 'public',
  // CONTRACT.md: the plans need no session.
  'plans.list': 'public',
  // A calendar app subscribed to the private feed: the random token is the key.
  'appointments.calendar': 'public',

  // The user's own account, whatever the role.
  'feedback.send': 'self',
  'organizations.list': 'self',
  'organizations.switch': 'self',
  'members.join': 'self',
  'devices.list': 'self',
  'devices.revoke': 'self',
  'devices.revokeOthers': 'self',
  // Each user's own calendar feed address.
  'appointments.feed': 'self',
  'appointments.createFeed': 'self',
  'appointments.revokeFeed': 'self',

  // Reading and exports: the accountant's whole reach.
  'audit.list': 'read',
  'audit.verify': 'read',
  'currencies.list': 'read',
  'customers.get': 'read',
  'customers.list': 'read',
  'customers.duplicates': 'read',
  'customers.export': 'read',
  'documentMail.draft': 'read',
  'documentMail.response': 'read',
  'documents.get': 'read',
  'documents.list': 'read',
  'documents.payments': 'read',
  'documents.einvoice': 'read',
  'einvoice.directory': 'read',
  'einvoice.lifecycle': 'read',
  'emailSettings.get': 'read',
  'expenses.categories': 'read',
  'expenses.export': 'read',
  'bankAccounts.list': 'read',
  'bankAccounts.get': 'read',
  'bankTransactions.list': 'read',
  'expenses.figures': 'read',
  'expenses.get': 'read',
  'expenses.list': 'read',
  'expenses.receipt': 'read',
  'expenses.suppliers': 'read',
  'exports.accounts': 'read',
  'exports.fec': 'read',
  'figures.customer': 'read',
  'figures.dashboard': 'read',
  'items.get': 'read',
  'items.list': 'read',
  'items.export': 'read',
  'members.list': 'read',
  'organization.get': 'read',
  'recurringExpenses.get': 'read',
  'recurringExpenses.list': 'read',
  'recurringInvoices.get': 'read',
  'recurringInvoices.list': 'read',
  'reminders.jobs': 'read',
  'reminders.list': 'read',
  'reminders.ofDocument': 'read',
  'reminders.settings': 'read',
  'appointments.get': 'read',
  'appointments.ics': 'read',
  'appointments.list': 'read',
  'reports.customers': 'read',
  'reports.items': 'read',
  'reports.margin': 'read',
  'reports.receipts': 'read',
  'reports.receivables': 'read',
  'reports.turnover': 'read',
  'reports.urssaf': 'read',
  'reports.tags': 'read',
  'reports.vat': 'read',
  'search.query': 'read',
  'settings.get': 'read',
  'tags.list': 'read',
  'einvoicing.inbox': 'read',
  'expenses.lifecycle': 'read',
  'taxes.list': 'read',
  'units.list': 'read',

  // The day's work: documents, customers, items, expenses, recurring.
  'customers.create': 'write',
  'customers.update': 'write',
  'customers.import': 'write',
  'customers.restore': 'write',
  'documentMail.send': 'write',
  'documents.convert': 'write',
  'documents.create': 'write',
  'documents.delete': 'write',
  'documents.deletePayment': 'write',
  'documents.deposit': 'write',
  'documents.duplicate': 'write',
  'documents.issue': 'write',
  'documents.markSent': 'write',
  'documents.recordPayment': 'write',
  'documents.setStatus': 'write',
  'documents.update': 'write',
  'documents.updatePayment': 'write',
  'einvoice.poll': 'write',
  'einvoice.recordStatus': 'write',
  'einvoice.send': 'write',
  'einvoice.transmit': 'write',
  'einvoicing.sync': 'write',
  'appointments.bill': 'write',
  'appointments.create': 'write',
  'appointments.delete': 'write',
  'appointments.invite': 'write',
  'appointments.update': 'write',
  'expenses.attachReceipt': 'write',
  // The bank's lines, and what they paid: the day's bookkeeping.
  'bankAccounts.import': 'write',
  'bankTransactions.match': 'write',
  'bankTransactions.ignore': 'write',
  'bankTransactions.confirmSure': 'write',
  'expenses.create': 'write',
  'expenses.delete': 'write',
  'expenses.importEinvoice': 'write',
  'expenses.removeReceipt': 'write',
  'expenses.sendStatus': 'write',
  'expenses.saveCategory': 'write',
  'expenses.update': 'write',
  'items.create': 'write',
  'items.update': 'write',
  'items.import': 'write',
  'items.restore': 'write',
  'recurringExpenses.create': 'write',
  'recurringExpenses.delete': 'write',
  'recurringExpenses.pause': 'write',
  'recurringExpenses.update': 'write',
  'recurringInvoices.create': 'write',
  'recurringInvoices.delete': 'write',
  'recurringInvoices.generate': 'write',
  'recurringInvoices.pause': 'write',
  'recurringInvoices.update': 'write',
  'reminders.send': 'write',
  'tags.create': 'write',
  'tags.update': 'write',

  // Settings, members, and the deletions CONTRACT.md keeps from members.
  'currencies.create': 'manage',
  'currencies.delete': 'manage',
  'currencies.update': 'manage',
  'customers.delete': 'manage',
  'emailSettings.sendTest': 'manage',
  'emailSettings.update': 'manage',
  // The platform connection: even reading it, as it says where the business's invoices go and under which account.
  'einvoicing.settings': 'manage',
  'einvoicing.saveSettings': 'manage',
  'einvoicing.check': 'manage',
  'expenses.archiveCategory': 'manage',
  // Which accounts the business has: their IBAN is printed on its invoices.
  'bankAccounts.create': 'manage',
  'bankAccounts.update': 'manage',
  'bankAccounts.delete': 'manage',
  'expenses.deleteCategory': 'manage',
  // Every role sees the plan and its counters (the top bar, the banner near a limit).
  'subscription.get': 'read',
  // The subscription's invoices are the business's own expenses: the accountant reads them too.
  'subscription.invoices': 'read',
  'subscription.checkout': 'own',
  'subscription.cancel': 'own',
  'subscription.resume': 'own',
  'subscription.cancelChange': 'own',
  // Webhooks: even the list, which names where the business's data goes.
  'webhooks.create': 'manage',
  'webhooks.delete': 'manage',
  'webhooks.deliveries': 'manage',
  'webhooks.list': 'manage',
  'webhooks.test': 'manage',
  'webhooks.update': 'manage',
  'apiKeys.list': 'manage',
  'apiKeys.create': 'manage',
  'apiKeys.revoke': 'manage',
  'exports.saveAccounts': 'manage',
  'items.delete': 'manage',
  'members.invite': 'manage',
  'members.remove': 'manage',
  'members.revokeInvitation': 'manage',
  'members.updateRole': 'manage',
  'organization.deleteLogo': 'manage',
  'organization.update': 'manage',
  'organization.uploadLogo': 'manage',
  'reminders.saveSettings': 'manage',
  'settings.update': 'manage',
  'tags.delete': 'manage',
  'taxes.create': 'manage',
  'taxes.delete': 'manage',
  'taxes.update': 'manage',
  'units.create': 'manage',
  'units.delete': 'manage',

  // Owners only: the organisation itself.
  'members.transferOwnership': 'own',
} as const satisfies Record<string, Capability | 'public'>;

/** A procedure's dotted path: the screens name one (`useCan('documents.create')`) and a typo fails to compile. */
export type Procedure = keyof typeof TABLE;

export const PERMISSIONS: Readonly<Record<string, Capability | 'public'>> = TABLE;

/**
 * The reads an accountant may not make, by exception to « reads everything »: who holds an API key, and where the
 * business's data is sent (webhook URLs may carry a receiver's token), are the business of those who manage access.
 */
export const MANAGERS_ONLY_READS: readonly string[] = ['apiKeys.list', 'webhooks.list', 'webhooks.deliveries', 'einvoicing.settings'];

export const PERMISSIONS_FILE = 'src/shared/permissions.ts';

/** Whether a member with this role may call the procedure; a path missing from the table may not (fail closed). */
export function roleMayCall(role: Role, path: string): boolean {
  const needed = PERMISSIONS[path];
  if (needed === undefined) return false;
  return needed === 'public' || roleCan(role, needed);
}
