import * as yup from 'yup';

/** What readiness looks at (docs/operations.md, "Liveness and readiness"), in the order it names them. */
export const readinessChecks = ['database', 'migrations', 'redis', 'shutdown'] as const;
export type ReadinessCheck = (typeof readinessChecks)[number];

/** A check's result: passing, failing, not asked for (Redis without REDIS_URL), or not looked at (migrations while the database is away). */
export const checkResults = ['ok', 'failing', 'not configured', 'not checked'] as const;
export type CheckResult = (typeof checkResults)[number];

/** GET /livez: the process runs. */
export const livenessAnswer = yup.object({ status: yup.string().oneOf(['live']).required() });

/** GET /readyz while the node can serve; when it cannot, 503 service_unavailable with `{ failing, checks, pendingMigrations? }` as details. */
export const readinessAnswer = yup.object({
  status: yup.string().oneOf(['ready']).required(),
  checks: yup.object(Object.fromEntries(readinessChecks.map((check) => [check, yup.string().oneOf(checkResults).required()]))),
});
