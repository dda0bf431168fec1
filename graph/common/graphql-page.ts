import { Field, ObjectType, type ClassType } from 'type-graphql';
import type { Page } from '../../contracts/pagination';

export interface PageTypeOptions {
  /** The description of the page type itself. */
  description?: string;
  /** The description of its nextPageOffset field. */
  nextPageOffset?: string;
}

/** The cursor's usual description, for pages that give one. */
export const nextPageOffsetDescription = 'Pass as offset for the next page; null on the last.';

function pageClass<Row>(rowType: ClassType, name: string | null, options: PageTypeOptions): ClassType<Page<Row>> {
  // The base of a page with fields of its own is never a field's type, so buildSchema leaves it out.
  @ObjectType(name ?? `${rowType.name}PageBase`, { description: options.description })
  class PageType implements Page<Row> {
    @Field(() => [rowType])
    rows!: Row[];

    @Field(() => String, { nullable: true, description: options.nextPageOffset })
    nextPageOffset!: string | null;
  }
  return PageType;
}

/**
 * The GraphQL type of a page of `rowType` (contracts/pagination.ts `Page`), named `name`:
 * `pageOf<UserView>(User, 'UserPage')`. `Row` is what the service answers for a row, which the
 * row type's field resolvers complete.
 */
export function pageOf<Row>(rowType: ClassType, name: string, options: PageTypeOptions = {}): ClassType<Page<Row>> {
  return pageClass<Row>(rowType, name, options);
}

/** The fields of a page as an abstract type, for a page that adds its own (extend it and decorate the class with `@ObjectType`). */
export function abstractPageOf<Row>(rowType: ClassType, options: PageTypeOptions = {}): ClassType<Page<Row>> {
  return pageClass<Row>(rowType, null, options);
}
