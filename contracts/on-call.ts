import * as yup from 'yup';
import type { UserReference } from './references';

/** POST /console-admin/v1/on-call/ops: the staff user who answers the phone, or null for nobody. */
export const onCallOpsUpdateSchema = yup
  .object({
    userHashId: yup.string().trim().max(64).nullable().defined(),
  })
  .exact();
export type OnCallOpsUpdate = yup.InferType<typeof onCallOpsUpdateSchema>;

const userReferenceSchema = yup.object({ hashId: yup.string().required(), name: yup.string().required(), email: yup.string().required() });

/** GET and POST /console-admin/v1/on-call/ops answer: the on-call ops user, or null. */
export interface OnCallOpsView {
  user: UserReference | null;
}
export const onCallOpsViewSchema = yup.object({ user: userReferenceSchema.nullable().defined() });

/** Someone on call now in Grafana OnCall's schedule, and the Gridport user with the same email if any. */
export interface GrafanaOnCallUserView {
  grafanaUserId: string;
  email: string;
  username: string;
  user: UserReference | null;
}

/** GET /console-admin/v1/on-call/grafana: who the configured schedule has on call now. */
export interface GrafanaOnCallView {
  scheduleId: string;
  scheduleName: string;
  onCall: GrafanaOnCallUserView[];
}
export const grafanaOnCallViewSchema = yup.object({
  scheduleId: yup.string().required(),
  scheduleName: yup.string().required(),
  onCall: yup
    .array(
      yup.object({
        grafanaUserId: yup.string().required(),
        email: yup.string().required(),
        username: yup.string().required(),
        user: userReferenceSchema.nullable().defined(),
      }),
    )
    .required(),
});
