import { graphqlEnum } from '../../common/graphql-enum';
import { auditChangeTypes, auditObjectTypes } from '../../../contracts/audit-log';

export const AuditObjectTypeEnum = graphqlEnum('AuditObjectType', auditObjectTypes, 'The kinds of objects whose changes the audit log records.');

export const AuditChangeTypeEnum = graphqlEnum('AuditChangeType', auditChangeTypes, 'What kind of change an audit log row records.');
