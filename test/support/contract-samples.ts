import type { CallName, CallRequest } from '../../common/contract';
import type { InvoiceDraft } from '../../common/money/draft';

/**
 * One valid request per contract call. Typed over every call name, so adding a call to the
 * contract fails the typecheck until it has a sample here, and the browser-host round-trip
 * test and the malformed-input test cover it automatically.
 */
const SAMPLE_DRAFT: InvoiceDraft = {
  RefID: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
  InvSeries: '1C26TAA',
  InvoiceName: '',
  InvDate: '2026-01-15',
  CurrencyCode: 'VND',
  ExchangeRate: '1',
  PaymentMethodName: 'TM/CK',
  IsTicket: false,
  BuyerLegalName: 'Công ty Mẫu',
  BuyerTaxCode: '0101243150',
  BuyerAddress: 'Hà Nội',
  BuyerCode: '',
  BuyerPhoneNumber: '',
  BuyerEmail: '',
  BuyerFullName: '',
  BuyerBankAccount: '',
  BuyerBankName: '',
  lines: [
    { ItemType: 1, ItemCode: 'A1', ItemName: 'Bút bi', UnitName: 'cái', Quantity: '2', UnitPrice: '5000', DiscountRate: '', DiscountAmountOC: '', discountBy: 'rate', VATRateName: '10%' },
  ],
  vatOverrides: {},
};

export const sampleRequests: { [N in CallName]: CallRequest<N> } = {
  'app.info': {},
  'diagnostics.export': {},
  'profiles.list': {},
  'profiles.add': { name: 'Sample custom', kind: 'custom', baseUrl: 'http://127.0.0.1:9/api/integration/invoice' },
  'profiles.update': { id: 'sandbox', name: 'Sandbox' },
  'profiles.remove': { id: 'no-such-profile' },
  'profiles.activate': { id: 'sandbox' },
  'profiles.test': { id: 'sandbox' },
  'profiles.sandbox': {},
  'auth.status': {},
  'auth.signInWithToken': { token: 'sample-token' },
  'auth.signInWithPassword': { appId: 'app', taxCode: '0101243150', userName: 'user', password: 'password' },
  'auth.signOut': {},
  'settings.get': {},
  'settings.update': { language: 'vi' },
  'updates.status': {},
  'updates.check': {},
  'updates.restart': {},
  'updates.cancelRestart': {},
  'updates.setEnabled': { enabled: true },
  'updates.declareWork': { key: 'sample', busy: false },
  'emails.list': { states: ['queued'], search: 'x' },
  'emails.status': {},
  'emails.add': { entries: [{ transactionId: 'SAMPLE-TX-1', receiverEmail: 'a@example.com', kind: 'withCode' }] },
  'emails.importCsv': { text: 'TransactionID,ReceiverName,ReceiverEmail\nSAMPLE-TX-2,An,b@example.com\n', kind: 'withoutCode' },
  'emails.exportCsv': {},
  'emails.retry': { ids: [1] },
  'emails.cancel': { ids: [1] },
  'emails.remove': { ids: [999999] },
  'emails.update': { id: 1, receiverEmail: 'c@example.com' },
  'emails.flush': {},
  // drafting (issue 6)
  'drafts.list': { query: 'Mẫu', sort: 'updated' },
  'drafts.get': { id: 'no-such-draft' },
  'drafts.create': {},
  'drafts.save': { id: 'no-such-draft', draft: SAMPLE_DRAFT },
  'drafts.duplicate': { id: 'no-such-draft' },
  'drafts.delete': { id: 'no-such-draft' },
  'drafts.restore': { id: 'no-such-draft' },
  'drafts.export': { id: 'no-such-draft' },
  'drafts.import': {
    invoice: {
      RefID: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', InvSeries: '1C26TAA', InvDate: '2026-01-15', CurrencyCode: 'VND', ExchangeRate: 1, IsTicket: false,
      BuyerLegalName: 'Công ty Mẫu', TotalAmountWithoutVATOC: 10000, TotalVATAmountOC: 1000, TotalDiscountAmountOC: 0, TotalAmountOC: 11000,
      TotalAmountInWords: 'Mười một nghìn đồng',
      OriginalInvoiceDetail: [{ ItemType: 1, LineNumber: 1, ItemCode: 'A1', ItemName: 'Bút bi', UnitName: 'cái', Quantity: 2, UnitPrice: 5000, DiscountRate: 0, DiscountAmountOC: 0, AmountOC: 10000, AmountWithoutVATOC: 10000, VATRateName: '10%' }],
      TaxRateInfo: [{ VATRateName: '10%', AmountWithoutVATOC: 10000, VATAmountOC: 1000 }],
    },
  },
  'catalogues.items': { query: 'bút' },
  'catalogues.buyers': { query: '0101' },
  'catalogues.importCsv': { kind: 'items', csv: 'code,name,unit,price,vat\nA1,Bút bi,cái,5000,10%\n' },
  'templates.list': {},
  'preview.run': { draftId: 'no-such-draft' },
  'preview.open': { previewId: 'no-such-preview' },
};

/** Calls whose sample may legitimately answer with an AppError in a fresh data folder. */
export const mayFailWithAppError: ReadonlySet<CallName> = new Set<CallName>(['profiles.remove', 'auth.signInWithPassword', 'updates.restart',
  'drafts.get',
  'drafts.save',
  'drafts.duplicate',
  'drafts.delete',
  'drafts.restore',
  'drafts.export',
  'preview.run',
  'preview.open',
  'emails.update',
]);
