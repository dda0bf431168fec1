import PDFDocument from 'pdfkit';
import { ledgerAccounts, type BillingChargeView, type BillingInvoiceView, type LedgerAccount } from '../../../contracts/billing';
import { formatEuro } from '../../../contracts/billing-invoice';

/** The details of the legal entity an invoice is made out to, as its row holds them. */
export interface InvoiceLegalEntity {
  companyName: string;
  address1: string | null;
  address2: string | null;
  zipcode: string | null;
  city: string | null;
  country: string;
  emails: string[];
  chamberOfCommerce: string | null;
  taxNumber: string | null;
}

export interface InvoicePdfInput {
  invoice: BillingInvoiceView;
  /** Every charge on the invoice, in the order printed. */
  charges: readonly BillingChargeView[];
  legalEntity: InvoiceLegalEntity | null;
}

const ledgerNames: Record<LedgerAccount, string> = { hardware: 'Hardware', saas: 'SaaS', consultancy: 'Consultancy' };

const margin = 50;
const pageWidth = 595.28;
const pageHeight = 841.89;
const bottom = pageHeight - margin - 20;
const usable = pageWidth - 2 * margin;
/** Column x positions and widths: description, device, period, amount. */
const columns = {
  description: { x: margin, width: 200 },
  device: { x: margin + 205, width: 100 },
  period: { x: margin + 310, width: 120 },
  amount: { x: margin + 435, width: usable - 435 },
} as const;

const day = (iso: string) => iso.slice(0, 10);

/** `text` cut to `width` points at the current font and size, ending in an ellipsis when cut. */
function fit(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) {
    return text;
  }
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}…`) > width) {
    cut = cut.slice(0, -1);
  }
  return `${cut}…`;
}

/** One line of cells at `y`; the amount right-aligned. */
function row(doc: PDFKit.PDFDocument, y: number, cells: { description: string; device: string; period: string; amount: string }): void {
  for (const key of ['description', 'device', 'period'] as const) {
    const column = columns[key];
    doc.text(fit(doc, cells[key], column.width), column.x, y, { width: column.width, lineBreak: false });
  }
  doc.text(cells.amount, columns.amount.x, y, { width: columns.amount.width, align: 'right', lineBreak: false });
}

/**
 * An invoice as a PDF (docs/billing.md, "Invoices"): the legal entity it is made out to, the
 * public id and dates, every charge with its device, period and amount, the totals per ledger
 * account and the total, money as `€ 1.234,56`. Only standard fonts (nothing embedded) and a
 * creation date taken from the invoice: the same invoice gives the same bytes.
 */
export function renderInvoicePdf({ invoice, charges, legalEntity }: InvoicePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: {
      Title: `Invoice ${invoice.publicId}`,
      Author: 'Gridport',
      Creator: 'Gridport',
      Producer: 'Gridport',
      CreationDate: new Date(invoice.createdAt),
      ModDate: new Date(invoice.createdAt),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text(`Invoice ${invoice.publicId}`, margin, margin);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  doc.text(`Invoice date: ${day(invoice.createdAt)}`);
  doc.text(`Charges billable before: ${day(invoice.periodEnd)}`);
  if (invoice.customerReference) {
    doc.text(`Customer reference: ${invoice.customerReference}`);
  }
  doc.moveDown();

  doc.font('Helvetica-Bold').text('Bill to');
  doc.font('Helvetica');
  if (legalEntity) {
    const cityLine = [legalEntity.zipcode, legalEntity.city].filter((part) => part).join(' ');
    for (const line of [legalEntity.companyName, legalEntity.address1, legalEntity.address2, cityLine, legalEntity.country]) {
      if (line) {
        doc.text(line);
      }
    }
    if (legalEntity.chamberOfCommerce) {
      doc.text(`Chamber of commerce: ${legalEntity.chamberOfCommerce}`);
    }
    if (legalEntity.taxNumber) {
      doc.text(`Tax number: ${legalEntity.taxNumber}`);
    }
    if (legalEntity.emails.length > 0) {
      doc.text(`Invoice mail: ${legalEntity.emails.join(', ')}`);
    }
  } else {
    doc.text(invoice.organization.name);
  }
  doc.moveDown();

  const lineHeight = 14;
  const header = (y: number) => {
    doc.font('Helvetica-Bold');
    row(doc, y, { description: 'Description', device: 'Device', period: 'Period', amount: 'Amount' });
    doc
      .moveTo(margin, y + 12)
      .lineTo(pageWidth - margin, y + 12)
      .stroke();
    doc.font('Helvetica');
    return y + lineHeight + 2;
  };
  let y = header(doc.y);
  for (const charge of charges) {
    if (y > bottom) {
      doc.addPage();
      y = header(margin);
    }
    row(doc, y, {
      description: charge.description,
      device: charge.device?.name ?? '',
      period: charge.from && charge.to ? `${day(charge.from)} – ${day(charge.to)}` : day(charge.billableAt),
      amount: formatEuro(charge.charge),
    });
    y += lineHeight;
  }

  const totalLines: [string, number][] = [
    ...ledgerAccounts.map((account): [string, number] => [`Total ${ledgerNames[account]}`, invoice.totals[account]]),
    ['Total', invoice.charge],
  ];
  if (y + (totalLines.length + 1) * lineHeight > bottom) {
    doc.addPage();
    y = margin;
  }
  doc
    .moveTo(margin, y + 2)
    .lineTo(pageWidth - margin, y + 2)
    .stroke();
  y += 8;
  totalLines.forEach(([label, cents], index) => {
    doc.font(index === totalLines.length - 1 ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(label, columns.period.x, y, { width: columns.period.width, lineBreak: false });
    doc.text(formatEuro(cents), columns.amount.x, y, { width: columns.amount.width, align: 'right', lineBreak: false });
    y += lineHeight;
  });
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(`${invoice.chargeCount} charge(s). Amounts in euro.`, margin, y + 10, { lineBreak: false });
  doc.end();
  return done;
}
