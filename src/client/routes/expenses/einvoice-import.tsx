import { type DragEvent, type ReactNode, useRef, useState } from 'react';
import { css } from '../../../../styled-system/css';
import type { ExpenseRecord } from '../../../shared/schemas/expense';
import { errorInfo, trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { Spinner } from '../../components/ui/spinner';
import { FileButton } from '../../components/ui/file-button';
import { readBase64 } from '../../lib/read-file';

const ACCEPT = 'application/pdf,application/xml,text/xml,.pdf,.xml';

const styles = {
  zone: css({ position: 'relative' }),
  overlay: css({
    position: 'absolute',
    inset: '0',
    zIndex: '10',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    p: '6',
    textAlign: 'center',
    bg: 'accent.subtle',
    opacity: 0.96,
    borderWidth: '2px',
    borderStyle: 'dashed',
    borderColor: 'accent.default',
    borderRadius: 'xl',
    color: 'fg.default',
    pointerEvents: 'none',
  }),
  overlayTitle: css({ fontSize: 'lg', fontWeight: '700' }),
  overlayHint: css({ fontSize: 'sm', color: 'fg.muted' }),
  status: css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm', px: '4', py: '2', borderRadius: 'lg', mb: '3' }),
  pending: css({ bg: 'accent.subtle' }),
  error: css({ bg: 'dangerSubtle', color: 'danger', fontWeight: '600' }),
};

export type ImportedInvoice = { expense: ExpenseRecord; warnings: string[] };

/** The import's state for the page: one file at a time, its error kept on screen until the next try. */
export function useEinvoiceImport(onImported: (imported: ImportedInvoice) => void) {
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const mutation = trpc.expenses.importEinvoice.useMutation({ meta: { silent: true } });
  async function importFile(file: File) {
    setError(null);
    try {
      const answer = await mutation.mutateAsync(await readBase64(file));
      showMessage(answer.messages, 201);
      void utils.expenses.invalidate();
      onImported({ expense: answer.data, warnings: answer.warnings });
    } catch (e) {
      setError([errorInfo(e).messages].flat().join(' '));
    }
  }
  return { importFile, pending: mutation.isPending, error, pendingName: mutation.variables?.filename };
}

/**
 * The expenses panel as a drop target for a supplier's e-invoice: an overlay says where to let go while a file is
 * dragged over it, then the import's progress or its French error shows above the list.
 */
export function EinvoiceDropZone({
  onFile,
  pending,
  pendingName,
  error,
  children,
}: {
  /** None for a role that may not import (client/lib/use-can.ts): the list shows without a drop zone. */
  onFile?: (file: File) => void;
  pending: boolean;
  pendingName?: string;
  error: string | null;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  // dragenter/dragleave fire for every child crossed: a depth count tells when the pointer really left the zone.
  const depth = useRef(0);
  const hasFile = (e: DragEvent) => Array.from(e.dataTransfer.types).includes('Files');
  if (!onFile) return <>{children}</>;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for the mouse; EinvoiceImportButton does the same by keyboard
    <div
      className={styles.zone}
      data-testid="einvoice-drop-zone"
      onDragEnter={(e) => {
        if (!hasFile(e)) return;
        e.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(e) => {
        if (!hasFile(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setOver(false);
        const file = e.dataTransfer.files[0];
        if (file && !pending) onFile(file);
      }}
    >
      {pending && (
        <div className={`${styles.status} ${styles.pending}`} role="status">
          <Spinner size={16} /> Import de « {pendingName} » en cours…
        </div>
      )}
      {error && !pending && (
        <div className={`${styles.status} ${styles.error}`} role="alert">
          Import impossible : {error}
        </div>
      )}
      {children}
      {over && (
        <div className={styles.overlay} aria-hidden="true">
          <span className={styles.overlayTitle}>Déposez la facture du fournisseur ici</span>
          <span className={styles.overlayHint}>PDF Factur-X ou ZUGFeRD, XML CII ou UBL — 10 Mo au plus</span>
        </div>
      )}
    </div>
  );
}

/** The same import for the keyboard: a labelled file input styled as a button. */
export function EinvoiceImportButton({ onFile, pending }: { onFile: (file: File) => void; pending: boolean }) {
  return (
    <FileButton accept={ACCEPT} disabled={pending} onFile={onFile} data-testid="einvoice-file-input">
      Importer une facture fournisseur
    </FileButton>
  );
}
