import { css } from '../../../../styled-system/css';
import type { ExpenseRecord } from '../../../shared/schemas/expense';
import { trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { FileButton } from '../../components/ui/file-button';

export const receiptUrl = (id: number) => `/api/expenses/${id}/receipt`;
const ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp,.pdf,.png,.jpg,.jpeg,.webp';

const styles = {
  box: css({
    display: 'flex',
    gap: '3',
    alignItems: 'center',
    flexWrap: 'wrap',
    p: '3',
    borderWidth: '1px',
    borderStyle: 'dashed',
    borderColor: 'border.default',
    borderRadius: 'lg',
  }),
  thumb: css({ w: '16', h: '16', objectFit: 'cover', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.default' }),
  name: css({ fontSize: 'sm', flex: '1', minW: '0', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }),
  hint: css({ fontSize: 'xs', color: 'fg.muted' }),
  link: css({ fontSize: 'sm', color: 'accent.default', fontWeight: '600', textDecoration: 'underline' }),
};

/** The receipt of an expense: shown (the server's inline file, opened in a new tab), replaced or removed. */
export function ReceiptField({
  expense,
  pendingFile,
  onPick,
}: {
  expense: ExpenseRecord | null;
  pendingFile: File | null;
  onPick: (file: File | null) => void;
}) {
  const utils = trpc.useUtils();
  const remove = trpc.expenses.removeReceipt.useMutation({
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.expenses.invalidate();
    },
  });
  const receipt = expense?.receipt;
  return (
    <div className={styles.box}>
      {pendingFile ? (
        <span className={styles.name}>{pendingFile.name} — joint à l’enregistrement</span>
      ) : receipt && expense ? (
        <>
          {receipt.content_type.startsWith('image/') && (
            <img className={styles.thumb} src={receiptUrl(expense.id)} alt="Aperçu du justificatif" />
          )}
          <span className={styles.name}>{receipt.filename}</span>
          <a className={styles.link} href={receiptUrl(expense.id)} target="_blank" rel="noreferrer">
            {receipt.content_type === 'application/xml' ? 'Voir le XML de la facture' : 'Voir le justificatif'}
          </a>
          <Button variant="ghost" size="sm" loading={remove.isPending} onClick={() => remove.mutate({ id: expense.id })}>
            Retirer
          </Button>
        </>
      ) : (
        <span className={styles.name}>Aucun justificatif</span>
      )}
      <FileButton variant="link" accept={ACCEPT} aria-label="Joindre un justificatif" onFile={onPick}>
        {receipt || pendingFile ? 'Remplacer…' : 'Joindre un fichier…'}
      </FileButton>
      <span className={styles.hint}>PDF, PNG, JPEG ou WebP, 10 Mo au plus</span>
    </div>
  );
}
