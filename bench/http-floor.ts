/**
 * The floor of bench/http.bench.ts: a bare Fastify with `pg` doing what an authenticated
 * organisation list must do and nothing else. It reads the session cookie, verifies its token
 * (fast-jwt, the session service's secret), reads the session and its user in one query, refuses
 * a revoked or lapsed one, reads the page (51 rows newest first) and sends the 50 rows as JSON.
 * No hash ids, no ORM, no validation library, no GraphQL: what Gridport's list costs above this
 * is what its layers cost. Run by the benchmark in a process of its own (FLOOR_DATABASE_URL,
 * FLOOR_SESSION_SECRET, PORT).
 */
import { parse } from 'cookie';
import { createVerifier } from 'fast-jwt';
import Fastify from 'fastify';
import { Pool } from 'pg';
import { sessionCookieName } from '../graph/identity/services/session.service';

interface SessionRow {
  revoked_at: Date | null;
  expires_at: Date;
  organization_id: string;
  rights: string[];
}

interface OrganizationRow {
  id: string;
  name: string;
  type: string;
  pricing: unknown;
  invoice_customer_reference: string | null;
  invoice_frequency: string;
  require_legal_entity_per_device: boolean;
  require_customer_reference_per_device: boolean;
  subscription_defaults: unknown;
  created_at: Date;
  updated_at: Date;
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });
  const verify = createVerifier({ key: process.env.FLOOR_SESSION_SECRET ?? '', algorithms: ['HS256'] }) as (token: string) => { sid: number };
  const app = Fastify({ logger: false });
  app.get('/organization', async (request, reply) => {
    const token = request.headers.cookie ? parse(request.headers.cookie)[sessionCookieName] : undefined;
    let sid: number;
    try {
      sid = verify(token ?? '').sid;
    } catch {
      return reply.code(401).send({ key: 'unauthorized' });
    }
    const sessions = await pool.query<SessionRow>(
      'select s.revoked_at, s.expires_at, u.organization_id, u.rights from sessions s join users u on u.id = s.user_id where s.id = $1',
      [sid],
    );
    const session = sessions.rows[0];
    if (!session || session.revoked_at !== null || session.expires_at.getTime() <= Date.now() || !session.rights.includes('gridport.employee')) {
      return reply.code(401).send({ key: 'unauthorized' });
    }
    const rowsPerPage = Number((request.query as { rowsPerPage?: string }).rowsPerPage ?? 50);
    const { rows } = await pool.query<OrganizationRow>('select * from organizations order by id desc limit $1', [rowsPerPage + 1]);
    const page = rows.slice(0, rowsPerPage);
    return {
      rows: page.map((row) => ({
        hashId: row.id,
        name: row.name,
        type: row.type,
        isProvider: row.id === '1',
        pricing: row.pricing,
        invoiceCustomerReference: row.invoice_customer_reference,
        invoiceFrequency: row.invoice_frequency,
        requireLegalEntityPerDevice: row.require_legal_entity_per_device,
        requireCustomerReferencePerDevice: row.require_customer_reference_per_device,
        subscriptionDefaults: row.subscription_defaults,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      })),
      nextPageOffset: rows.length > rowsPerPage ? String(page[page.length - 1]?.id) : null,
    };
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`the floor server failed: ${String(error)}\n`);
  process.exit(1);
});
