import { useEffect, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { css } from '../../../../styled-system/css';
import { formatDecimal } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/field';
import { listStyles } from '../../components/ui/list';
import { documentHref } from './document-meta';
import { decimalSchema } from '../../../shared/schemas/document';
import { defined } from '../../../shared/defined';

interface Invoice {
  id: number;
  number: string | null;
  items: { id?: number; item: string; quantity: number; unit: string }[];
}

/** A credit note for chosen lines and quantities of an issued invoice (the whole invoice is in the row menu). */
export function CreditNoteDialog({ open, invoice, onClose }: { open: boolean; invoice: Invoice; onClose: () => void }) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [error, setError] = useState<string>();
  // The line the error names: its input is marked invalid and described by the message.
  const [invalidLine, setInvalidLine] = useState<number | null>(null);
  const errorId = useId();
  useEffect(() => {
    if (open) {
      setQuantities({});
      setError(undefined);
      setInvalidLine(null);
    }
  }, [open]);
  const convert = trpc.documents.convert.useMutation({
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
    const lines: { id: number; quantity: number }[] = [];
    for (const line of invoice.items) {
      const text = quantities[defined(line.id, 'line.id')] ?? '';
      if (!text.trim()) continue;
      // The shared decimal rule reads what was typed ('1,5'); any refusal names the line and what it accepts.
      const quantity = decimalSchema('Quantité à créditer', 4, 1e9)
        .refine((q) => q > 0 && q <= line.quantity)
        .safeParse(text);
      if (!quantity.success) {
        setInvalidLine(defined(line.id, 'line.id'));
        return setError(`« ${line.item} » : une quantité entre 0 et ${formatDecimal(line.quantity, 2).replace(/,00$/, '')} est attendue`);
      }
      lines.push({ id: defined(line.id, 'line.id'), quantity: quantity.data });
    }
    setInvalidLine(null);
    if (lines.length === 0) return setError('Indiquez la quantité à créditer d’au moins une ligne');
    void guard(() => convert.mutateAsync({ id: invoice.id, type: 'credit', lines }));
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={`Avoir sur la facture ${invoice.number}`}
      width={560}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={submit} loading={convert.isPending}>
            Créer l’avoir
          </Button>
        </>
      }
    >
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>
        Quantités à créditer, ligne par ligne. L’avoir est créé en brouillon : vérifiez-le puis émettez-le.
      </p>
      <table className={listStyles.table}>
        <thead>
          <tr>
            <th>Ligne</th>
            <th style={{ textAlign: 'right' }}>Facturé</th>
            <th style={{ textAlign: 'right' }}>À créditer</th>
          </tr>
        </thead>
        <tbody>
          {invoice.items.map((line) => (
            <tr key={line.id}>
              <td>{line.item}</td>
              <td className={listStyles.number} style={{ textAlign: 'right' }}>
                {formatDecimal(line.quantity, 2).replace(/,00$/, '')} {line.unit}
              </td>
              <td style={{ width: 120 }}>
                <Input
                  size="sm"
                  inputMode="decimal"
                  aria-label={`Quantité à créditer : ${line.item}`}
                  value={quantities[defined(line.id, 'line.id')] ?? ''}
                  onChange={(e) => setQuantities({ ...quantities, [defined(line.id, 'line.id')]: e.target.value })}
                  placeholder="0"
                  aria-invalid={invalidLine === line.id || undefined}
                  aria-describedby={invalidLine === line.id ? errorId : undefined}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && (
        <p id={errorId} role="alert" className={css({ color: 'danger', fontSize: 'sm', mt: '2' })}>
          {error}
        </p>
      )}
    </Dialog>
  );
}
