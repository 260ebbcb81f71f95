import { useRef, useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import type { BankTransaction, MatchCandidate } from '../../../shared/schemas/bank';
import { formatDateShort, formatDecimal } from '../../../shared/format';
import { add, isNegative, isZero, type Money, min, money, parseAmount, sub, toDecimalString } from '../../../shared/money';
import { errorInfo, trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { useDebounced } from '../../lib/use-debounced';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { TextField } from '../../components/ui/text-field';
import { AmountInput } from '../../components/ui/amount-input';
import { bankAmount } from './bank-styles';

/** One document chosen for the line, with what it is paid and, for an invoice, what was kept of it on the way. */
type Part = { candidate: MatchCandidate; amount: string; fee: string };

const FORM_ID = 'bank-assign-form';
const messageOf = (error: unknown) => [errorInfo(error).messages].flat().join(' ');
/** An amount typed in a field, for the live sum: what does not read as a number counts as nothing until fixed. */
const typed = (text: string): Money => {
  const n = parseAmount(text);
  return n === undefined || Number.isNaN(n) ? money(0) : money(n);
};

const styles = {
  body: css({ display: 'grid', gap: '3' }),
  summary: css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', fontSize: 'sm' }),
  // Whole classes, not overrides: two atomic classes of one property do not say which wins.
  remaining: css({ fontSize: 'sm', fontWeight: '600', borderRadius: 'lg', px: '3', py: '2', bg: 'bg.subtle' }),
  done: css({ fontSize: 'sm', fontWeight: '600', borderRadius: 'lg', px: '3', py: '2', bg: 'successSubtle', color: 'success' }),
  over: css({ fontSize: 'sm', fontWeight: '600', borderRadius: 'lg', px: '3', py: '2', bg: 'dangerSubtle', color: 'danger' }),
  list: css({ display: 'grid', gap: '1', listStyle: 'none', p: '0', m: '0', maxH: '48', overflowY: 'auto' }),
  candidate: css({
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '2',
    fontSize: 'sm',
    px: '2',
    py: '1.5',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.default',
  }),
  muted: css({ fontSize: 'xs', color: 'fg.muted' }),
  part: css({
    display: 'grid',
    gap: '2',
    alignItems: 'end',
    gridTemplateColumns: { base: '1fr 1fr', sm: '2fr 1fr 1fr auto' },
    // A debit has no fee column: its amount and « Retirer » share the row.
    '&[data-kind=expense]': { gridTemplateColumns: { base: '1fr auto', sm: '2fr 1fr auto' } },
    borderTopWidth: '1px',
    borderColor: 'border.default',
    pt: '2',
  }),
  partLabel: css({ gridColumn: { base: '1 / -1', sm: 'auto' }, fontSize: 'sm', alignSelf: 'center' }),
  error: css({ fontSize: 'sm', bg: 'dangerSubtle', color: 'danger', fontWeight: '600', borderRadius: 'lg', px: '3', py: '2' }),
  heading: css({ fontSize: 'sm', fontWeight: '700' }),
};

/**
 * « Associer… »: finds what an open line could pay (open invoices for a credit, unpaid expenses for a debit) and splits
 * the line across them; the amounts must add up to what is left of the line, shown as they are typed.
 */
export function AssignDialog({
  line,
  open,
  onClose,
  onDone,
}: {
  line: BankTransaction;
  open: boolean;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const moneyText = useMoney();
  const credit = line.amount > 0;
  const what = credit ? 'facture' : 'dépense';
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const candidates = trpc.bankTransactions.candidates.useQuery({ id: line.id, q }, { enabled: open, placeholderData: (p) => p });
  const [parts, setParts] = useState<Part[]>([]);
  const [error, setError] = useState<string>();
  const match = trpc.bankTransactions.match.useMutation({ meta: { silent: true } });
  const searchField = useRef<HTMLInputElement>(null);

  const lineLeft = sub(money(line.amount).abs(), line.allocated);
  const carried = add(...parts.map((p) => sub(typed(p.amount), typed(p.fee))));
  const left = sub(lineLeft, carried);
  const chosen = new Set(parts.map((p) => `${p.candidate.kind}-${p.candidate.id}`));
  const shown = (candidates.data?.data ?? []).filter((c) => !chosen.has(`${c.kind}-${c.id}`));

  const addPart = (candidate: MatchCandidate) => {
    // What is still to split, or the whole balance when less is left: the usual case is one document paid in full.
    const share = isNegative(left) || isZero(left) ? money(candidate.balance) : min(candidate.balance, left);
    setParts([...parts, { candidate, amount: formatDecimal(share, 2), fee: '' }]);
    setError(undefined);
  };
  const setPart = (index: number, patch: Partial<Part>) => {
    setParts(parts.map((p, i) => (i === index ? { ...p, ...patch } : p)));
    setError(undefined); // a refusal speaks of the amounts as they were: once they change, the live rest says the rest
  };

  /** The French reason the split cannot be sent as typed, checked before the server's own checks. */
  function problem(): string | undefined {
    if (parts.length === 0) return `Choisissez au moins une ${what}`;
    for (const p of parts) {
      const amount = parseAmount(p.amount);
      const fee = parseAmount(p.fee);
      if (amount === undefined || Number.isNaN(amount)) return `${p.candidate.label} : montant attendu`;
      if (amount <= 0) return `${p.candidate.label} : le montant doit être positif`;
      if (Number.isNaN(fee)) return `${p.candidate.label} : frais invalides`;
      if (fee !== undefined && fee < 0) return `${p.candidate.label} : les frais ne peuvent pas être négatifs`;
      if (fee !== undefined && !money(fee).lt(money(amount)))
        return `${p.candidate.label} : les frais doivent rester inférieurs au montant`;
    }
    if (isNegative(left)) return `La répartition dépasse l’opération de ${moneyText(left.abs(), line.currency)}`;
    if (!isZero(left)) return `La répartition doit égaler l’opération : il reste ${moneyText(left, line.currency)} à répartir`;
    return undefined;
  }

  async function submit() {
    const reason = problem();
    if (reason) return setError(reason);
    setError(undefined);
    try {
      const answer = await match.mutateAsync({
        id: line.id,
        matches: parts.map((p) => ({
          kind: p.candidate.kind,
          id: p.candidate.id,
          amount: toDecimalString(typed(p.amount)),
          fee: toDecimalString(typed(p.fee)),
        })),
      });
      setParts([]);
      setSearch('');
      onDone(answer.messages);
    } catch (e) {
      setError(messageOf(e));
    }
  }

  return (
    <Dialog
      open={open}
      onClose={() => {
        // Cancelled: nothing was recorded, the next opening starts afresh.
        setParts([]);
        setError(undefined);
        onClose();
      }}
      title="Associer l’opération"
      width={680}
      persistent
      initialFocusEl={() => searchField.current}
      footer={
        <>
          <Button
            variant="ghost"
            onClick={() => {
              setParts([]);
              setError(undefined);
              onClose();
            }}
          >
            Annuler
          </Button>
          <Button type="submit" form={FORM_ID} loading={match.isPending}>
            Enregistrer le rapprochement
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        className={styles.body}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className={styles.summary}>
          <span>
            {formatDateShort(line.date)} · {line.label}
          </span>
          <strong className={bankAmount}>{moneyText(line.amount, line.currency)}</strong>
        </div>
        <p role="status" className={isNegative(left) ? styles.over : isZero(left) && parts.length > 0 ? styles.done : styles.remaining}>
          {isNegative(left)
            ? `Dépasse l’opération de ${moneyText(left.abs(), line.currency)}`
            : `Reste à répartir : ${moneyText(left, line.currency)}`}
        </p>

        {parts.length > 0 && (
          <div className={css({ display: 'grid', gap: '2' })}>
            <h3 className={styles.heading}>Répartition</h3>
            {parts.map((p, index) => (
              <fieldset
                key={`${p.candidate.kind}-${p.candidate.id}`}
                data-kind={p.candidate.kind}
                className={cx(styles.part, css({ border: 'none', m: '0', p: '0' }))}
              >
                <legend className={css({ srOnly: true })}>{p.candidate.label}</legend>
                <span className={styles.partLabel}>
                  {p.candidate.label}
                  <span className={styles.muted}> · reste {moneyText(p.candidate.balance, line.currency)}</span>
                </span>
                <Field label="Montant" size="sm">
                  <AmountInput
                    size="sm"
                    value={p.amount}
                    onChange={(amount) => setPart(index, { amount })}
                    aria-label={`Montant ${p.candidate.label}`}
                  />
                </Field>
                {credit ? (
                  <Field label="Frais retenus" size="sm">
                    <AmountInput
                      size="sm"
                      value={p.fee}
                      placeholder="0,00"
                      onChange={(fee) => setPart(index, { fee })}
                      aria-label={`Frais retenus ${p.candidate.label}`}
                    />
                  </Field>
                ) : null}
                <Button
                  size="sm"
                  variant="ghost"
                  type="button"
                  aria-label={`Retirer ${p.candidate.label}`}
                  onClick={() => setParts(parts.filter((_, i) => i !== index))}
                >
                  Retirer
                </Button>
              </fieldset>
            ))}
          </div>
        )}

        <TextField
          ref={searchField}
          label={credit ? 'Rechercher une facture ouverte' : 'Rechercher une dépense à payer'}
          placeholder={credit ? 'Numéro ou client' : 'Fournisseur, libellé ou numéro'}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the first found rather than sending an unfinished split.
            if (e.key !== 'Enter') return;
            e.preventDefault();
            const [first] = shown;
            if (first) addPart(first);
          }}
        />
        {candidates.isLoading && <p className={styles.muted}>Recherche…</p>}
        {candidates.isError && (
          <p role="alert" className={styles.error}>
            {messageOf(candidates.error)}
          </p>
        )}
        {candidates.data && shown.length === 0 && (
          <p className={styles.muted}>
            {candidates.data.data.length > 0
              ? `${credit ? 'Les factures trouvées sont' : 'Les dépenses trouvées sont'} toutes dans la répartition.`
              : q
                ? `Aucune ${what} ne correspond à « ${q} ».`
                : credit
                  ? 'Aucune facture ouverte dans cette devise.'
                  : 'Aucune dépense à payer dans cette devise.'}
          </p>
        )}
        {shown.length > 0 && (
          <ul className={styles.list} aria-label={credit ? 'Factures ouvertes' : 'Dépenses à payer'}>
            {shown.map((c) => (
              <li key={`${c.kind}-${c.id}`} className={styles.candidate}>
                <span>
                  {c.label}
                  <span className={styles.muted}> · {formatDateShort(c.date)}</span>
                </span>
                <span className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                  <span className={bankAmount}>{moneyText(c.balance, c.currency)}</span>
                  <Button size="sm" variant="outline" type="button" aria-label={`Ajouter ${c.label}`} onClick={() => addPart(c)}>
                    Ajouter
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p role="alert" className={styles.error}>
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
