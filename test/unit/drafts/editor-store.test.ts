/** The editor's store: new lines, Ctrl+Delete / Ctrl+Z, and what the screen's numbers read back as. */
import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec, dotStyleFor, emptyDraft, emptyLine, parseTyped } from '../../../common/money';
import { formatAmount } from '../../../renderer/src/drafts/editor/format';
import { useEditor } from '../../../renderer/src/drafts/editor/store';

function load(lines = [{ ...emptyLine(1), ItemName: 'Trà', VATRateName: 'KCT' }]) {
  const draft = { ...emptyDraft({ RefID: '', InvDate: '2026-01-02' }), lines };
  useEditor.getState().load({
    id: 'd1',
    draft,
    meta: { wordsEdited: false, words: '' },
    updatedAt: '2026-01-02T00:00:00Z',
  } as unknown as Parameters<ReturnType<typeof useEditor.getState>['load']>[0]);
}

describe('editor store', () => {
  beforeEach(() => load());

  it('a new line copies the rate above and stays quiet until left', () => {
    const at = useEditor.getState().addLine(0);
    expect(at).toBe(1);
    expect(useEditor.getState().draft!.lines[1]!.VATRateName).toBe('KCT');
    expect(useEditor.getState().freshLine).toBe(1);
    useEditor.getState().leaveFreshLine();
    expect(useEditor.getState().freshLine).toBeNull();
  });

  it('a blank new draft line counts as fresh when the draft opens', () => {
    load([{ ...emptyLine(1) }]);
    expect(useEditor.getState().freshLine).toBe(0);
  });

  it('Ctrl+Z puts back the line Ctrl+Delete removed, but not after other edits', () => {
    useEditor.getState().addLine(0);
    useEditor.getState().setLine(1, { ItemName: 'Cà phê' });
    useEditor.getState().removeLine(0);
    expect(useEditor.getState().draft!.lines.map((l) => l.ItemName)).toEqual(['Cà phê']);
    expect(useEditor.getState().restoreRemovedLine()).toBe(0);
    expect(useEditor.getState().draft!.lines.map((l) => l.ItemName)).toEqual(['Trà', 'Cà phê']);
    expect(useEditor.getState().restoreRemovedLine()).toBeNull();

    useEditor.getState().removeLine(1);
    useEditor.getState().setLine(0, { ItemName: 'Trà đá' });
    expect(useEditor.getState().restoreRemovedLine()).toBeNull();
    expect(useEditor.getState().draft!.lines).toHaveLength(1);
  });
});

describe('amounts the screen shows read back to the same value', () => {
  it('what the service said about a field goes once that field is edited; about a line, it moves with the line', () => {
    useEditor.getState().addLine(0);
    const said = () => Object.keys(useEditor.getState().serviceIssues).sort();
    const issues = {
      BuyerAddress: { message: 'a' },
      BuyerTaxCode: { message: 'b' },
      'lines[0].Quantity': { message: 'c' },
      'lines[0].UnitPrice': { message: 'd' },
      'lines[1].ItemName': { message: 'e' },
      IsTicket: { message: 'f' },
      ReceiverEmail: { message: 'g' },
      TotalAmountInWords: { message: 'h' },
      TaxRateInfo: { message: 'i' },
      lines: { message: 'j' },
    };
    useEditor.getState().setServiceIssues(issues);
    useEditor.getState().setField('BuyerAddress', '5 Lê Lợi');
    useEditor.getState().setField('BuyerEmail', 'a@b.vn');
    useEditor.getState().setTicket(true);
    useEditor.getState().setWords('Một nghìn đồng');
    expect(said()).toEqual(['BuyerTaxCode', 'TaxRateInfo', 'lines', 'lines[0].Quantity', 'lines[0].UnitPrice', 'lines[1].ItemName']);
    useEditor.getState().setLine(0, { Quantity: '2' });
    expect(said()).toEqual(['BuyerTaxCode', 'TaxRateInfo', 'lines', 'lines[0].UnitPrice', 'lines[1].ItemName']);
    useEditor.getState().setLine(1, { VATRateName: '10%' });
    expect(said()).toEqual(['BuyerTaxCode', 'lines', 'lines[0].UnitPrice', 'lines[1].ItemName']);
    useEditor.getState().setLineType(0, 2);
    expect(said()).toEqual(['BuyerTaxCode', 'lines', 'lines[1].ItemName']);

    // A line put in above moves the words down with their line; one added at the end moves nothing.
    useEditor.getState().setServiceIssues({ 'lines[0].UnitPrice': { message: 'd' }, 'lines[1].ItemName': { message: 'e' }, lines: { message: 'j' } });
    useEditor.getState().addLine();
    expect(said()).toEqual(['lines', 'lines[0].UnitPrice', 'lines[1].ItemName']);
    useEditor.getState().addLine(0);
    expect(said()).toEqual(['lines', 'lines[0].UnitPrice', 'lines[2].ItemName']);
    expect(useEditor.getState().serviceIssues['lines[2].ItemName']!.message).toBe('e');
    // A line taken out takes its words with it; the ones below move up; "too many lines" may be settled.
    useEditor.getState().removeLine(0);
    expect(said()).toEqual(['lines[1].ItemName']);
    useEditor.getState().restoreRemovedLine();
    expect(said()).toEqual(['lines[2].ItemName']);
  });

  it('formatAmount (totals, line amounts) → parseTyped', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.constantFrom('VND', 'USD'), (units, currency) => {
        const decimals = currency === 'VND' ? 0 : 2;
        const value = new Dec(units.toString()).div(new Dec(10).pow(decimals));
        const shown = formatAmount(value, decimals);
        const back = parseTyped(shown, { dot: dotStyleFor('amount', currency) });
        expect(back.kind === 'ok' && back.value.eq(value), `${value.toFixed()} ${currency} → ${shown}`).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
