import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { AmountInput } from '../../components/ui/amount-input';
import { RadioGroup } from '../../components/ui/radio-group';
import { documentHref } from './document-meta';
import { decimalSchema } from '../../../shared/schemas/document';

/** What is typed, read by the shared decimal rule: a positive percent (100 at most) or a positive amount TTC. */
function typedDepositSchema(mode: 'percent' | 'amount') {
  const positive = mode === 'percent' ? 'Un pourcentage positif est attendu (ex. 30)' : 'Un montant positif est attendu (ex. 500,00)';
  return decimalSchema('Acompte', 4, 1e12, positive)
    .refine((n) => n > 0, positive)
    .refine((n) => mode === 'amount' || n <= 100, '100 % au plus');
}

const MODES = [
  { value: 'percent', label: 'En pourcentage du total' },
  { value: 'amount', label: 'Montant TTC' },
] as const;

/** A deposit invoice (facture d'acompte, CGI art. 289) on an estimate or order: a percent of its total or an amount TTC. */
export function DepositDialog({
  open,
  source,
  onClose,
}: {
  open: boolean;
  source: { id: number; number: string | null };
  onClose: () => void;
}) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [mode, setMode] = useState<'percent' | 'amount'>('percent');
  const [value, setValue] = useState('30');
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (open) setError(undefined);
  }, [open]);
  const deposit = trpc.documents.deposit.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.documents.invalidate();
      onClose();
      navigate(documentHref(answer.data, 'edit'));
    },
  });
  // A second click before the disabled button renders is ignored: one record per action.
  const guard = useActionGuard();
  function submit() {
    const typed = typedDepositSchema(mode).safeParse(value);
    if (!typed.success) return setError(typed.error.issues[0]?.message);
    void guard(() =>
      deposit.mutateAsync(mode === 'percent' ? { id: source.id, percent: typed.data } : { id: source.id, amount: typed.data }),
    );
  }
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Facture d’acompte sur ${source.number}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={submit} loading={deposit.isPending}>
            Créer la facture d’acompte
          </Button>
        </>
      }
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
        <RadioGroup
          label="Acompte"
          options={MODES}
          value={mode}
          onChange={(next) => {
            // The other mode reads the value differently: the previous refusal no longer applies.
            setMode(next as typeof mode);
            setError(undefined);
          }}
        />
        <Field label={mode === 'percent' ? 'Pourcentage (%)' : 'Montant TTC'} error={error}>
          {/* Tidied the French way on blur ('1 200,50'); a percent keeps the decimals typed. */}
          <AmountInput
            value={value}
            onChange={(next) => {
              setValue(next);
              setError(undefined);
            }}
            minDecimals={mode === 'amount' ? 2 : 0}
            autoFocus
          />
        </Field>
        <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
          La facture d’acompte reprend les taux de TVA du document au prorata ; elle sera déduite de la facture finale.
        </p>
      </div>
    </Dialog>
  );
}
