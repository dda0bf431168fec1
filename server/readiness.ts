import type { FastifyInstance } from 'fastify';
import { GridportError } from '../contracts/errors';
import { livenessAnswer, readinessAnswer, readinessChecks, type CheckResult, type ReadinessCheck } from '../contracts/health';
import type { Services } from '../graph/services';
import { access } from './rest/access';
import { defineRoute } from './rest/route';
import { databaseAnswers, pendingMigrations, type Database } from './database';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<ReadinessCheck, CheckResult>;
  /** The migrations this code lists that the database lacks (a node newer than its database). */
  pendingMigrations?: string[];
}

export interface ReadinessOptions {
  db: Database;
  /** The schema Gridport's tables live in. */
  schema: string;
  /** Whether Redis answers (REDIS_URL); null when it is not configured. */
  redis?: (() => Promise<boolean>) | null;
  /** How long each check may take before it counts as failing (2 s unless given). */
  timeoutMs?: number;
}

async function within<T>(work: Promise<T>, timeoutMs: number, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<T>((resolve) => (timer = setTimeout(() => resolve(late), timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether this node can serve (docs/operations.md, "Liveness and readiness"): the database
 * answers, it has every migration this code lists, Redis answers when configured, and the node
 * is not shutting down. Liveness asks none of this.
 */
export class Readiness {
  private stopping = false;

  constructor(private readonly options: ReadinessOptions) {}

  /** From now on the node reads not ready (a stop has begun: the load balancer should send it nothing new). */
  shuttingDown(): void {
    this.stopping = true;
  }

  async check(): Promise<ReadinessReport> {
    const timeoutMs = this.options.timeoutMs ?? 2000;
    const { db, schema, redis } = this.options;
    const [database, redisAnswers] = await Promise.all([
      databaseAnswers(db, timeoutMs),
      redis
        ? within(
            redis().catch(() => false),
            timeoutMs,
            false,
          )
        : Promise.resolve(null),
    ]);
    const pending = database
      ? await within(
          pendingMigrations(db, schema).catch(() => null),
          timeoutMs,
          null,
        )
      : null;
    const checks: Record<ReadinessCheck, CheckResult> = {
      database: database ? 'ok' : 'failing',
      migrations: !database ? 'not checked' : pending !== null && pending.length === 0 ? 'ok' : 'failing',
      redis: redisAnswers === null ? 'not configured' : redisAnswers ? 'ok' : 'failing',
      shutdown: this.stopping ? 'failing' : 'ok',
    };
    const ready = Object.values(checks).every((result) => result !== 'failing');
    return { ready, checks, ...(pending && pending.length > 0 ? { pendingMigrations: pending } : {}) };
  }
}

/**
 * The probes beside /v1/health and /v1/elb (which stay as api.md specifies them): liveness
 * answers while the process runs, readiness whether the node can serve, naming what fails.
 */
export function readinessRoutes(app: FastifyInstance, services: Services, readiness: Readiness): void {
  defineRoute(app, services, {
    method: 'GET',
    url: '/livez',
    summary: 'Liveness: 200 while the process runs (it asks no dependency)',
    tags: ['health'],
    ...access('health.read'),
    response: livenessAnswer,
    handler: async () => ({ status: 'live' }),
  });

  defineRoute(app, services, {
    method: 'GET',
    url: '/readyz',
    summary: 'Readiness: 200 while this node can serve; 503 service_unavailable naming the failing checks',
    tags: ['health'],
    ...access('health.read'),
    response: readinessAnswer,
    handler: async () => {
      const report = await readiness.check();
      if (!report.ready) {
        const failing = readinessChecks.filter((check) => report.checks[check] === 'failing');
        throw new GridportError('service_unavailable', {
          failing,
          checks: report.checks,
          ...(report.pendingMigrations ? { pendingMigrations: report.pendingMigrations } : {}),
        });
      }
      return { status: 'ready', checks: report.checks };
    },
  });
}
