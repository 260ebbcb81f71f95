import { RECEIPT_MAX_BYTES } from '../../shared/schemas/expense';

/**
 * The largest e-invoice XML the server reads. A supplier's XML may be uploaded up to RECEIPT_MAX_BYTES; the one
 * inside a PDF gets a little more room (the PDF compresses it), and no more: 1 MB of deflate inflates to 1 GB.
 */
export const EINVOICE_XML_MAX_BYTES = RECEIPT_MAX_BYTES + 2 * 1024 * 1024;

/** « 12 Mo », for the messages that name the cap. */
export const EINVOICE_XML_MAX_LABEL = `${EINVOICE_XML_MAX_BYTES / 1024 / 1024} Mo`;
