import type { CatalogueBuyer, CatalogueItem } from '../../../../common/calls/catalogues';
import { bridge } from '../../bridge';
import type { Suggestion } from './Autocomplete';
import { shownFromStored } from './money';

export async function searchItems(query: string): Promise<Suggestion<CatalogueItem>[]> {
  const { items } = await bridge.call('catalogues.items', { query, limit: 8 });
  return items.map((i) => ({
    key: `${i.code}|${i.name}`,
    label: i.code ? `${i.code} · ${i.name}` : i.name,
    detail: [i.unit, shownFromStored(i.price, { dot: 'thousands' }), i.vatRate].filter(Boolean).join(' · '),
    value: i,
  }));
}

export async function searchBuyers(query: string): Promise<Suggestion<CatalogueBuyer>[]> {
  const { buyers } = await bridge.call('catalogues.buyers', { query, limit: 8 });
  return buyers.map((b) => ({
    key: `${b.taxCode}|${b.legalName}`,
    label: b.legalName,
    detail: [b.taxCode, b.address].filter(Boolean).join(' · '),
    value: b,
  }));
}
