import { Model, snakeCaseMappers } from 'objection';

/** Every model: camelCase properties over snake_case columns; no global knex (each query gets one). */
export class BaseModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}
