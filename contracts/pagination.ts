import * as yup from 'yup';
import { limits } from './limits';

/** Query fields every paginated list takes: an opaque cursor and a page size. */
export const paginationQuery = {
  offset: yup.string().trim().max(1000).optional(),
  rowsPerPage: yup.number().integer().min(1).max(limits.rowsPerPageMax).default(limits.rowsPerPageDefault),
};

/** Path parameters of a route about one object: its hash id. */
export const hashIdParams = yup.object({ hashId: yup.string().trim().required().max(64) }).exact();

export const filterQuery = yup.string().trim().max(limits.filterLength).default('');

/** A page of rows with the cursor of the next page, or null on the last page. */
export interface Page<Row> {
  rows: Row[];
  nextPageOffset: string | null;
}

export function pageSchema<T extends yup.ISchema<unknown>>(row: T) {
  return yup.object({
    rows: yup.array(row).required(),
    nextPageOffset: yup.string().nullable().defined(),
  });
}
