import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatAddress } from '../../../shared/format';
import { DEFAULT_ADDRESS_FORMAT } from '../../../shared/schemas/settings';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TagChip } from '../../components/tags';
import { lazyPage } from '../../lib/lazy-page';
import { whenIdle } from '../../lib/when-idle';
import { LazyBoundary } from '../../components/page-loading';
import { CustomerFigures } from './customer-figures';
import { CustomerDocuments } from './customer-documents';
import { CustomerAppointments } from './customer-appointments';
import { CustomerDirectory } from './customer-directory';
import { plural } from '../../../shared/french';

// The edit form opens on « Modifier » only; it downloads when the browser is idle or on the button's hover.
const customerForm = lazyPage(
  () => import('./customer-form-dialog'),
  (m) => m.CustomerFormDialog,
);

const card = css({ bg: 'bg.surface', borderRadius: 'card', borderWidth: '1px', borderColor: 'border.default', p: { base: '4', md: '6' } });
const dl = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: '180px 1fr' },
  gap: '2',
  fontSize: 'sm',
  '& dt': { color: 'fg.muted' },
  '& dd': { fontWeight: '500', whiteSpace: 'pre-line' },
});

/** /customers/{id}: the customer's identity and addresses (edit, archive, restore), what they owe, their documents. */
export function CustomerDetailPage() {
  const { id } = useParams<{ id: string }>();
  const customerId = Number(id);
  const utils = trpc.useUtils();
  const customer = trpc.customers.get.useQuery(
    { id: customerId },
    { enabled: Number.isInteger(customerId) && customerId > 0, retry: false },
  );
  const settings = trpc.settings.get.useQuery(undefined, { staleTime: Infinity });
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState(false);
  const canEdit = useCan('customers.update');
  useEffect(() => (canEdit ? whenIdle(() => void customerForm.preload()) : undefined), [canEdit]);
  const canArchive = useCan('customers.delete');
  const canRestore = useCan('customers.restore');
  const archive = trpc.customers.delete.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      return utils.customers.invalidate();
    },
  });
  const restore = trpc.customers.restore.useMutation({
    onSuccess: (a) => {
      showMessage(a.messages, 200);
      return utils.customers.invalidate();
    },
  });

  if (customer.isError) {
    return (
      <div className={card}>
        <p>Ce client est introuvable.</p>
        <Link href="/customers" className={css({ color: 'accent.fg', fontWeight: '600' })}>
          Retour aux clients
        </Link>
      </div>
    );
  }
  if (!customer.data) return <Spinner label="Chargement du client" />;
  const c = customer.data;
  const template = settings.data && 'address_format' in settings.data ? settings.data.address_format : DEFAULT_ADDRESS_FORMAT;
  const address = formatAddress(template, c.address).join('\n');
  // A shipping address left blank still carries the default country: it is not an address of its own.
  const shipping =
    c.shipping.line1 || c.shipping.line2 || c.shipping.city || c.shipping.postal_code ? formatAddress(template, c.shipping).join('\n') : '';

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <section className={card}>
        <div
          className={css({
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'flex-start',
            gap: '3',
            flexWrap: 'wrap',
            mb: '4',
          })}
        >
          <div>
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{c.number}</p>
            <h2 className={css({ fontSize: 'xl', fontWeight: '700' })}>{c.name}</h2>
            {c.deleted_at && <p className={css({ color: 'warning', fontSize: 'sm', fontWeight: '600' })}>Client archivé</p>}
          </div>
          <div className={css({ display: 'flex', gap: '2' })}>
            {c.deleted_at ? (
              canRestore && (
                <Button onClick={() => restore.mutate({ id: c.id })} loading={restore.isPending}>
                  Restaurer
                </Button>
              )
            ) : (
              <>
                {canEdit && (
                  <Button
                    variant="outline"
                    onPointerEnter={() => void customerForm.preload()}
                    onFocus={() => void customerForm.preload()}
                    onClick={() => {
                      setEdited(true);
                      setEditing(true);
                    }}
                  >
                    Modifier
                  </Button>
                )}
                {canArchive && (
                  <Button
                    variant="ghost"
                    loading={archive.isPending}
                    onClick={async () => {
                      if (
                        await confirm(`Archiver ${c.name} ? Son numéro et sa fiche sont conservés ; vous pourrez le restaurer.`, {
                          title: 'Archiver le client',
                        })
                      )
                        archive.mutate({ id: c.id });
                    }}
                  >
                    Archiver
                  </Button>
                )}
              </>
            )}
          </div>
        </div>
        <dl className={dl}>
          <dt>Type</dt>
          <dd>{c.type === 'company' ? 'Entreprise' : 'Particulier'}</dd>
          {c.legal_name && (
            <>
              <dt>Raison sociale</dt>
              <dd>{c.legal_name}</dd>
            </>
          )}
          {c.business_id && (
            <>
              <dt>SIREN / SIRET</dt>
              <dd>{c.business_id}</dd>
            </>
          )}
          <CustomerDirectory customer={c} />
          {c.vat_number && (
            <>
              <dt>N° de TVA</dt>
              <dd>{c.vat_number}</dd>
            </>
          )}
          <dt>E-mail</dt>
          <dd>{c.email || '—'}</dd>
          <dt>Téléphone</dt>
          <dd>{c.phone || '—'}</dd>
          <dt>Adresse de facturation</dt>
          <dd>{address || '—'}</dd>
          <dt>Adresse de livraison</dt>
          <dd>{shipping || address || '—'}</dd>
          <dt>Délai de paiement</dt>
          <dd>{plural(c.maturity, 'jour')}</dd>
          <dt>Devise</dt>
          <dd>{c.currency}</dd>
          {c.tags.length > 0 && (
            <>
              <dt>Étiquettes</dt>
              <dd className={css({ display: 'flex', flexWrap: 'wrap', gap: '1' })}>
                {c.tags.map((t) => (
                  <TagChip key={t.id} name={t.name} color={t.color} />
                ))}
              </dd>
            </>
          )}
        </dl>
      </section>
      <CustomerFigures customerId={c.id} currency={c.currency} />
      <CustomerDocuments customerId={c.id} archived={Boolean(c.deleted_at)} />
      <CustomerAppointments customerId={c.id} customerName={c.name} />
      {edited && (
        <LazyBoundary fallback={null}>
          <customerForm.Component open={editing} customer={c} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />
        </LazyBoundary>
      )}
    </div>
  );
}
