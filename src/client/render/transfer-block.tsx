import { printedReference } from '../../shared/creditor-reference';
import { printedIban } from '../../shared/iban';
import { MUTED } from './render-context';
import type { RenderTransfer } from './types';

/** Big enough for any phone camera at reading distance, small enough to sit beside the conditions (EPC069-12 codes are version 13 at most). */
const QR_SIZE = '25mm';

/**
 * In the payment block: the account to pay by transfer (IBAN in its paper form, groups of four) and, on an issued
 * invoice, the ISO 11649 reference to write on the transfer and, on the public page and the PDF, the EPC069-12 code
 * that fills the transfer in, reference included.
 */
export function TransferBlock({ transfer, seller }: { transfer: RenderTransfer; seller: string | null }) {
  const { account, reference, qr } = transfer;
  return (
    <div data-transfer="" style={{ display: 'flex', alignItems: 'center', gap: '0.9em', breakInside: 'avoid' }}>
      {qr && (
        <img
          src={qr}
          alt="QR code de virement SEPA"
          data-transfer-qr=""
          width={95}
          height={95}
          style={{ width: QR_SIZE, height: QR_SIZE, flex: 'none' }}
        />
      )}
      <div style={{ minWidth: 0 }}>
        {account && (
          <>
            <div>
              <span style={{ color: MUTED }}>IBAN : </span>
              <span data-transfer-iban="" style={{ whiteSpace: 'nowrap' }}>
                {printedIban(account.iban)}
              </span>
            </div>
            {account.bic && (
              <div>
                <span style={{ color: MUTED }}>BIC : </span>
                {account.bic}
              </div>
            )}
            {account.holder && account.holder !== seller && (
              <div>
                <span style={{ color: MUTED }}>Titulaire : </span>
                {account.holder}
              </div>
            )}
          </>
        )}
        {reference && (
          <div>
            <span style={{ color: MUTED }}>Référence de virement : </span>
            <strong style={{ whiteSpace: 'nowrap', letterSpacing: '0.02em' }}>{printedReference(reference)}</strong>
          </div>
        )}
        {qr && <div style={{ color: MUTED, fontSize: '0.85em', marginTop: '0.25em' }}>Scannez pour payer par virement</div>}
      </div>
    </div>
  );
}
