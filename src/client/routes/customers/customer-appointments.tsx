import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { APPOINTMENT_STATUS_LABELS } from '../../../shared/schemas/appointment';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { Button } from '../../components/ui/button';
import { lazyPage } from '../../lib/lazy-page';
import { whenIdle } from '../../lib/when-idle';
import { LazyBoundary } from '../../components/page-loading';

const card = css({
  bg: 'bg.surface',
  borderRadius: 'card',
  borderWidth: '1px',
  borderColor: 'border.default',
  boxShadow: 'card',
  p: { base: '4', md: '5' },
});
// A wrapping row rather than four fixed columns: on a phone the title goes under the date and hours instead of a word a line.
const row = css({
  display: 'flex',
  flexWrap: 'wrap',
  columnGap: '3',
  rowGap: '0.5',
  fontSize: 'sm',
  py: '1.5',
  borderTopWidth: '1px',
  borderColor: 'border.default',
  _hover: { bg: 'bg.subtle' },
  '& > :nth-child(1)': { w: '6rem' },
  '& > :nth-child(2)': { w: '7rem' },
  '& > :nth-child(3)': { flex: '1', minW: '10rem' },
  '& > :nth-child(4)': { ml: 'auto' },
});

// The billing dialog (with its customer picker) is a good part of the customer page's code and opens on
// « Facturer » only: it downloads when the button shows and the browser is idle, or on its hover or focus.
const billDialog = lazyPage(
  () => import('../appointments/bill-dialog'),
  (m) => m.BillDialog,
);

/** A customer's appointments (the latest 20 first), and « Facturer » for the done ones not billed yet. */
export function CustomerAppointments({ customerId, customerName }: { customerId: number; customerName: string }) {
  const list = trpc.appointments.list.useQuery({ customer_id: customerId });
  const [billing, setBilling] = useState(false);
  const [billed, setBilled] = useState(false);
  const canBill = useCan('appointments.bill');
  const all = list.data?.data ?? [];
  const billable = all.filter((a) => a.status === 'done' && a.billed_document_id === null && a.start).length;
  const offered = billable > 0 && canBill;
  useEffect(() => (offered ? whenIdle(() => void billDialog.preload()) : undefined), [offered]);
  return (
    <section className={card} aria-labelledby="customer-appointments">
      <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '3', mb: '2', flexWrap: 'wrap' })}>
        <h2 id="customer-appointments" className={css({ fontSize: 'md', fontWeight: '700' })}>
          Rendez-vous
        </h2>
        <div className={css({ display: 'flex', gap: '2' })}>
          {offered && (
            <Button
              variant="outline"
              size="sm"
              onPointerEnter={() => void billDialog.preload()}
              onFocus={() => void billDialog.preload()}
              onClick={() => {
                setBilled(true);
                setBilling(true);
              }}
            >
              Facturer ({billable})
            </Button>
          )}
          <Link href="/appointments" className={css({ fontSize: 'sm', color: 'accent.default', fontWeight: '600', alignSelf: 'center' })}>
            Agenda
          </Link>
        </div>
      </div>
      {all.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{list.isPending ? 'Chargement…' : 'Aucun rendez-vous avec ce client'}</p>
      ) : (
        [...all]
          .reverse()
          .slice(0, 20)
          .map((a) => (
            <Link key={a.id} href={`/appointments?view=day&date=${a.date}`} className={row}>
              <span>{formatDateShort(a.date)}</span>
              <span className={css({ color: 'fg.muted' })}>{a.start && a.end ? `${a.start} – ${a.end}` : 'Journée'}</span>
              <span>{a.title}</span>
              <span className={css({ color: 'fg.muted' })}>
                {APPOINTMENT_STATUS_LABELS[a.status]}
                {a.billed_document_id !== null ? ' · facturé' : ''}
              </span>
            </Link>
          ))
      )}
      {billed && (
        <LazyBoundary fallback={null}>
          <billDialog.Component open={billing} onClose={() => setBilling(false)} customer={{ id: customerId, name: customerName }} />
        </LazyBoundary>
      )}
    </section>
  );
}
