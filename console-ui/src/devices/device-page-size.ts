/**
 * Rows per page asked of the API: a first page just over a tall screen's worth, so the first
 * rows show soon, then the API's most (500), so a long list takes few calls.
 */
export const devicePageSize = { first: 100, next: 500 } as const;

export function pageSizeAt(offset: string | null): number {
  return offset === null ? devicePageSize.first : devicePageSize.next;
}
