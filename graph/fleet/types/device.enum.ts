import { cloudApiLevels, deviceStatuses } from '../../../contracts/fleet';
import { graphqlEnum } from '../../common/graphql-enum';

export const CloudApiLevelEnum = graphqlEnum('CloudApiLevel', cloudApiLevels, 'Whether the public API may read a device, and also steer it.');

export const DeviceStatusEnum = graphqlEnum('DeviceStatus', deviceStatuses, 'The customer device list status filter.');
