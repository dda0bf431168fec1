/** An ILIKE pattern matching text that contains `filter`, with LIKE's own characters escaped. */
export function containsPattern(filter: string): string {
  return `%${filter.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
