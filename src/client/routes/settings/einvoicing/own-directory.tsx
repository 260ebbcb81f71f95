import { css } from '../../../../../styled-system/css';
import { formatDateShort } from '../../../../shared/format';
import { trpc } from '../../../trpc';
import { useCan } from '../../../lib/use-can';
import { showMessage } from '../../../stores/snackbar';
import { Button } from '../../../components/ui/button';

const box = css({ display: 'flex', flexDirection: 'column', gap: '2', borderTopWidth: '1px', borderColor: 'border.subtle', pt: '4' });
const title = css({ fontWeight: '600', fontSize: 'md' });
const facts = css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '4', rowGap: '1', fontSize: 'sm', m: '0' });
const term = css({ color: 'fg.muted' });
const warning = css({ color: 'warning', fontWeight: '600', fontSize: 'sm' });
const note = css({ fontSize: 'sm', color: 'fg.muted' });

const STATUS_LABELS = { unknown: 'Non vérifiée', listed: 'Inscrite', absent: 'Absente de l’annuaire' } as const;

/**
 * « Votre inscription à l’annuaire »: the organisation's own directory line, the electronic address its invoices carry
 * as the seller's (BT-34), its routing code, and « Vérifier dans l’annuaire » to read it again now.
 */
export function OwnDirectory({ dirty }: { dirty: boolean }) {
  const utils = trpc.useUtils();
  const mayCheck = useCan('einvoicing.checkOwnDirectory');
  const own = trpc.einvoicing.ownDirectory.useQuery(undefined, { staleTime: 0 });
  const check = trpc.einvoicing.checkOwnDirectory.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      utils.einvoicing.ownDirectory.setData(undefined, answer.data);
    },
    onSettled: () => utils.einvoicing.ownDirectory.invalidate(),
  });
  const data = own.data;
  return (
    <section className={box} aria-labelledby="own-directory-title" data-testid="own-directory">
      <h3 id="own-directory-title" className={title}>
        Votre inscription à l’annuaire
      </h3>
      {data && (
        <dl className={facts}>
          <dt className={term}>SIREN</dt>
          <dd>{data.siren || '—'}</dd>
          <dt className={term}>État</dt>
          <dd>{STATUS_LABELS[data.status]}</dd>
          <dt className={term}>Adresse électronique (BT-34)</dt>
          <dd>
            {data.electronic_address
              ? `${data.electronic_address} (schéma ${data.address_scheme})`
              : `${data.siren || '—'} (votre SIREN, à défaut)`}
          </dd>
          <dt className={term}>Code de routage</dt>
          <dd>{data.routing_code || '—'}</dd>
          <dt className={term}>Vérifiée le</dt>
          <dd>{data.checked_at ? formatDateShort(data.checked_at.slice(0, 10)) : 'jamais'}</dd>
        </dl>
      )}
      {data?.warning && (
        <p className={warning} role="status">
          {data.warning}
        </p>
      )}
      {mayCheck && (
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center' })}>
          <Button variant="outline" onClick={() => check.mutate()} loading={check.isPending} disabled={dirty}>
            Vérifier dans l’annuaire
          </Button>
          <span className={note}>Vos factures portent cette adresse comme adresse électronique du vendeur.</span>
        </div>
      )}
    </section>
  );
}
