import type { ReactNode } from 'react';
import { PickerResults } from './picker.styles';

export interface SearchResultsProps<Item> {
  /** The list's accessible name ("Organisations found"). */
  label: string;
  /** What the search found; undefined until it answers. */
  found: readonly Item[] | undefined;
  /** The line shown when the search found nothing ("No organisation matches."). */
  nothing: string;
  itemKey: (item: Item) => string;
  itemText: (item: Item) => ReactNode;
  /** Marks the chosen ones (aria-pressed); pickers that drop chosen items from the results leave it out. */
  isChosen?: (item: Item) => boolean;
  onChoose: (item: Item) => void;
}

/** What an admin picker's search found, each a button that chooses it; the pickers differ in what they keep of a choice. */
export function SearchResults<Item>({ label, found, nothing, itemKey, itemText, isChosen, onChoose }: SearchResultsProps<Item>) {
  return (
    <PickerResults aria-label={label}>
      {found?.length === 0 && <li>{nothing}</li>}
      {found?.map((item) => (
        <li key={itemKey(item)}>
          <button type="button" aria-pressed={isChosen?.(item)} onClick={() => onChoose(item)}>
            {itemText(item)}
          </button>
        </li>
      ))}
    </PickerResults>
  );
}
