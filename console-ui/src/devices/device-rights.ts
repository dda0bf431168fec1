import { staffWriterRights, type Right } from '../../../contracts/rights';

/** Who may write a device, its config, and send it messages: Ops and Developer (console.md section 6; Admin passes every check). */
export const deviceWriters: readonly Right[] = staffWriterRights;
