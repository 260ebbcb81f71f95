import { LIST_BASES } from './status';

// The source file each page of the app's shell is drawn by, keyed by its address (`:name` matches one segment). The
// server reads it to list, with the HTML of such an address, the files that page needs (src/server/http/spa-preloads.ts):
// the browser then downloads them with the app's first file instead of after it has run. src/client/routes.tsx imports
// the same files; tests/unit/page-modules.test.ts checks that each named file is one it imports. A page missing here
// only loses that head start.

const PAGES = 'src/client/routes';

const documentPages = Object.entries(LIST_BASES).flatMap(([type, base]): [string, string][] =>
  type === 'recurring'
    ? [
        [base, `${PAGES}/recurring/recurring-list-page.tsx`],
        [`${base}/new/add`, `${PAGES}/recurring/recurring-editor-page.tsx`],
        [`${base}/:id/edit`, `${PAGES}/recurring/recurring-editor-page.tsx`],
      ]
    : [
        [base, `${PAGES}/documents/documents-page.tsx`],
        [`${base}/new/add`, `${PAGES}/documents/editor/document-editor-page.tsx`],
        [`${base}/:id/edit`, `${PAGES}/documents/editor/document-editor-page.tsx`],
        [`${base}/:id/view`, `${PAGES}/documents/document-view-page.tsx`],
      ],
);

const SETTINGS_PAGES: Record<string, string> = {
  general: 'general-settings-page.tsx',
  organization: 'organization-settings-page.tsx',
  email: 'email-settings-page.tsx',
  einvoicing: 'einvoicing/einvoicing-settings-page.tsx',
  'online-payment': 'online-payment-settings-page.tsx',
  bank: 'bank-settings-page.tsx',
  currencies: 'currency-settings-page.tsx',
  taxes: 'tax-settings-page.tsx',
  units: 'unit-settings-page.tsx',
  tags: 'tag-settings-page.tsx',
  document: 'document-settings/document-settings-page.tsx',
  accounting: 'accounting-settings-page.tsx',
  audit: 'audit-settings-page.tsx',
  reminders: 'reminder-settings-page.tsx',
  jobs: 'jobs-settings-page.tsx',
  members: 'members-settings-page.tsx',
  devices: 'devices-settings-page.tsx',
  subscription: 'subscription-settings-page.tsx',
  api: 'api/api-settings-page.tsx',
};

/** The pages drawn inside the app's shell, behind the session check, each by its address pattern. */
export const SHELL_PAGE_MODULES: Readonly<Record<string, string>> = {
  '/': `${PAGES}/home-page.tsx`,
  '/customers': `${PAGES}/customers/customers-page.tsx`,
  '/customers/:id': `${PAGES}/customers/customer-detail-page.tsx`,
  '/items': `${PAGES}/items/items-page.tsx`,
  '/expenses': `${PAGES}/expenses/expenses-page.tsx`,
  '/expenses/recurring': `${PAGES}/expenses/recurring-expenses-page.tsx`,
  '/appointments': `${PAGES}/appointments/appointments-page.tsx`,
  '/bank': `${PAGES}/bank/bank-page.tsx`,
  '/einvoicing': `${PAGES}/einvoicing/einvoicing-page.tsx`,
  '/reports': `${PAGES}/reports/reports-page.tsx`,
  '/settings': `${PAGES}/settings/settings-frame.tsx`,
  ...Object.fromEntries(Object.entries(SETTINGS_PAGES).map(([slug, file]) => [`/settings/${slug}`, `${PAGES}/settings/${file}`])),
  ...Object.fromEntries(documentPages),
};

/** The module of the shell page at `pathname`, if it is one of the table's (a fixed address before a pattern). */
export function shellPageModule(pathname: string): string | undefined {
  const fixed = SHELL_PAGE_MODULES[pathname];
  if (fixed) return fixed;
  const segments = pathname.split('/');
  for (const [pattern, module] of Object.entries(SHELL_PAGE_MODULES)) {
    const parts = pattern.split('/');
    if (parts.length !== segments.length || !pattern.includes(':')) continue;
    if (parts.every((part, index) => (part.startsWith(':') ? (segments[index] ?? '') !== '' : part === segments[index]))) return module;
  }
  return undefined;
}
