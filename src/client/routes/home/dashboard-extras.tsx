import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { buttonRecipe } from '../../components/ui/button';
import { trpc } from '../../trpc';
import { useCanCall } from '../../lib/use-can';
import type { Procedure } from '../../lib/procedure-rules';
import { sum, toNumber } from '../../../shared/money';
import { parisToday } from '../../../shared/paris-date';

/**
 * This month's expenses in the base currency, from the expense figures the reports use (GET /api/expenses/figures):
 * TTC and HT, and how many. Other currencies are left to the expenses page, which shows them apart.
 */
export function useMonthExpenses(currency: string | undefined) {
  const today = parisToday();
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const to = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const figures = trpc.expenses.figures.useQuery({ from: `${today.slice(0, 7)}-01`, to }, { enabled: currency !== undefined });
  const rows = figures.data?.months.filter((r) => r.currency === currency) ?? [];
  return {
    ready: figures.data !== undefined,
    count: rows.reduce((n, r) => n + r.count, 0),
    amount: toNumber(sum(rows.map((r) => r.amount))),
    net: toNumber(sum(rows.map((r) => r.net))),
  };
}

/** Label, address, and the procedure the page is for: a shortcut to creating is not offered to a role that may not. */
const SHORTCUTS: [string, string, Procedure][] = [
  ['Nouvelle facture', '/invoices/new/add', 'documents.create'],
  ['Nouveau devis', '/estimates/new/add', 'documents.create'],
  ['Nouvelle dépense', '/expenses', 'expenses.create'],
  ['Clients', '/customers', 'customers.list'],
  ['Statistiques', '/reports', 'reports.turnover'],
];

/** The Vue d'ensemble's shortcuts to what is done most. */
export function Shortcuts() {
  const can = useCanCall();
  const shown = SHORTCUTS.filter(([, , procedure]) => can(procedure));
  return (
    <nav aria-label="Raccourcis" className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
      {shown.map(([label, href], i) => (
        <Link key={href} href={href} className={buttonRecipe({ variant: i === 0 ? 'solid' : 'outline', size: 'sm' })}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
