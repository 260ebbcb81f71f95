import { printedReference } from '../../shared/creditor-reference';
import { MUTED } from './render-context';
import type { RenderTransfer } from './types';

/** Big enough for any phone camera at reading distance, small enough to sit beside the conditions (EPC069-12 codes are version 13 at most). */
const QR_SIZE = '25mm';

/**
 * In the payment block: the ISO 11649 reference to write on the transfer (in its paper form, groups of four) and, on
 * the public page and the PDF, the EPC069-12 code that fills the transfer in, reference included.
 */
export function TransferBlock({ transfer }: { transfer: RenderTransfer }) {
  return (
    <div data-transfer="" style={{ display: 'flex', alignItems: 'center', gap: '0.9em', breakInside: 'avoid' }}>
      {transfer.qr && (
        <img
          src={transfer.qr}
          alt="QR code de virement SEPA"
          data-transfer-qr=""
          width={95}
          height={95}
          style={{ width: QR_SIZE, height: QR_SIZE, flex: 'none' }}
        />
      )}
      <div style={{ minWidth: 0 }}>
        <div>
          <span style={{ color: MUTED }}>Référence de virement : </span>
          <strong style={{ whiteSpace: 'nowrap', letterSpacing: '0.02em' }}>{printedReference(transfer.reference)}</strong>
        </div>
        {transfer.qr && <div style={{ color: MUTED, fontSize: '0.85em', marginTop: '0.25em' }}>Scannez pour payer par virement</div>}
      </div>
    </div>
  );
}
