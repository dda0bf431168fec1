import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, sampleSecretValues } from './config';
import { freshDir, problemsOf } from '../test-support/config';
import { projectRoot } from './version';

describe('configuration', () => {
  it('has the defaults of the embedded mode, with the demo fleet on', () => {
    const cwd = freshDir();
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.join(cwd, 'data'),
      databaseUrl: null,
      redisUrl: null,
      demo: true,
      environment: 'development',
      logLevel: 'info',
      requireServices: false,
    });
  });

  it('turns the demo fleet off by default when PostgreSQL is given, and on when asked', () => {
    const cwd = freshDir();
    const url = 'postgresql://postgres@127.0.0.1:5432/gridport';
    expect(loadConfig({ DATABASE_URL: url }, cwd).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, GRIDPORT_DEMO: 'yes' }, cwd).demo).toBe(true);
    expect(loadConfig({ GRIDPORT_DEMO: 'off' }, cwd).demo).toBe(false);
  });

  it('fails fast with every problem in one readable list', () => {
    const env = { PORT: 'eighty', DATABASE_URL: 'mysql://root@localhost/x', LOG_LEVEL: 'loud', GRIDPORT_DEMO: 'maybe', REDIS_URL: 'http://x' };
    const problems = problemsOf(env);
    expect(problems).toHaveLength(5);
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT must be a number',
        'DATABASE_URL must be a postgres:// or postgresql:// URL',
        'REDIS_URL must be a redis:// or rediss:// URL',
        'GRIDPORT_DEMO must be true or false (1/0, yes/no, on/off)',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      ]),
    );
    try {
      loadConfig(env, freshDir());
    } catch (error) {
      expect((error as Error).message).toMatch(/^Gridport cannot start; the configuration has 5 problem\(s\):\n {2}- /);
    }
  });

  it('generates secrets on first start and keeps them in the data folder', () => {
    const cwd = freshDir();
    const first = loadConfig({}, cwd);
    const second = loadConfig({}, cwd);
    expect(second.secrets).toEqual(first.secrets);
    expect(first.secrets.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(cwd, 'data', 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first.secrets);
  });

  it('uses a secret given in the environment without writing it to disk', () => {
    const cwd = freshDir();
    const given = 'a'.repeat(64);
    const config = loadConfig({ SESSION_SECRET: given }, cwd);
    expect(config.secrets.sessionSecret).toBe(given);
    expect(readFileSync(path.join(cwd, 'data', 'secrets.json'), 'utf8')).not.toContain(given);
  });

  it('takes the SAML callback under PUBLIC_URL, unless SAML_CALLBACK_URL says otherwise', () => {
    const cwd = freshDir();
    expect(loadConfig({ PUBLIC_URL: 'https://console.example.com/' }, cwd).saml.callbackUrl).toBe('https://console.example.com/console-admin/v1/saml2/acs');
    expect(loadConfig({ PUBLIC_URL: 'https://console.example.com', SAML_CALLBACK_URL: 'https://sso.example.com/acs' }, cwd).saml.callbackUrl).toBe(
      'https://sso.example.com/acs',
    );
    expect(loadConfig({}, cwd).saml.callbackUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://console.example.com/' }, cwd).publicUrl).toBe('https://console.example.com');
  });

  it('refuses to start with a secret copied from the sample file', () => {
    const sample = readFileSync(path.join(projectRoot(), '.env.sample'), 'utf8');
    const placeholders = [...sample.matchAll(/^(SESSION_SECRET|HASH_ID_SECRET|ENCRYPTION_KEY)=(.*)$/gm)].map((match) => match[2]);
    expect(placeholders).toHaveLength(3);
    for (const placeholder of placeholders) {
      expect(sampleSecretValues).toContain(placeholder);
    }
    expect(problemsOf({ SESSION_SECRET: placeholders[0], ENCRYPTION_KEY: 'short' })).toEqual([
      'SESSION_SECRET is the placeholder of the sample file; generate a real secret (openssl rand -hex 32)',
      'ENCRYPTION_KEY must be at least 32 characters long',
    ]);
  });

  it('reads TRUSTED_PROXIES as a list of addresses and CIDR ranges, empty by default, refusing anything else', () => {
    expect(loadConfig({}, freshDir()).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 192.0.2.1 ,fd00::/8' }, freshDir()).trustedProxies).toEqual(['10.0.0.0/8', '192.0.2.1', 'fd00::/8']);
    expect(problemsOf({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal,10.0.0.0/40' })).toEqual([
      'TRUSTED_PROXIES: "proxy.internal" is neither an IP address nor a CIDR range',
      'TRUSTED_PROXIES: "10.0.0.0/40" is neither an IP address nor a CIDR range',
    ]);
  });

  it('reads the Balena and HubSpot settings, unset by default', () => {
    expect(loadConfig({}, freshDir())).toMatchObject({
      balena: { apiUrl: 'https://api.balena-cloud.com', apiToken: null, fleetId: null },
      hubspot: { portalId: null },
    });
    const config = loadConfig(
      { BALENA_API_URL: 'http://127.0.0.1:9999/', BALENA_API_TOKEN: ' token ', BALENA_FLEET_ID: '1234', HUBSPOT_PORTAL_ID: '5551234' },
      freshDir(),
    );
    expect(config.balena).toEqual({ apiUrl: 'http://127.0.0.1:9999', apiToken: 'token', fleetId: 1234 });
    expect(config.hubspot).toEqual({ portalId: '5551234' });
  });

  it('runs no SMTP receiver unless SMTP_INBOUND_PORT is set, and then listens on loopback unless SMTP_INBOUND_HOST says otherwise', () => {
    expect(loadConfig({}, freshDir()).mailInbound).toEqual({ port: null, host: '127.0.0.1' });
    expect(loadConfig({ SMTP_INBOUND_PORT: '2525' }, freshDir()).mailInbound).toEqual({ port: 2525, host: '127.0.0.1' });
    expect(loadConfig({ SMTP_INBOUND_PORT: '25', SMTP_INBOUND_HOST: '0.0.0.0' }, freshDir()).mailInbound).toEqual({ port: 25, host: '0.0.0.0' });
    expect(problemsOf({ SMTP_INBOUND_PORT: 'smtp' })).toEqual(['SMTP_INBOUND_PORT must be a port number']);
    expect(problemsOf({ SMTP_INBOUND_PORT: '65536' })).toEqual(['SMTP_INBOUND_PORT must be from 0 to 65535']);
  });

  it('refuses a Balena token without a fleet, a fleet id that is not a number, and a portal id that is not numeric', () => {
    expect(problemsOf({ BALENA_API_TOKEN: 'token' })).toEqual(['BALENA_API_TOKEN is set, so BALENA_FLEET_ID (the numeric id of the Balena fleet) is required']);
    expect(problemsOf({ BALENA_FLEET_ID: 'my-fleet', BALENA_API_URL: 'api.balena-cloud.com', HUBSPOT_PORTAL_ID: 'gridport' })).toEqual(
      expect.arrayContaining([
        'BALENA_FLEET_ID must be a number (the numeric id of the fleet)',
        'BALENA_API_URL must be an http(s) URL such as https://api.balena-cloud.com',
        'HUBSPOT_PORTAL_ID must be the numeric id of the HubSpot account',
      ]),
    );
  });

  it('reads the history settings: 90 days of raw reports, a year of minutes, a pass a minute by default; minutes must outlive raw reports', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd).history).toEqual({ rawRetentionDays: 90, minuteRetentionDays: 365, rollupIntervalSeconds: 60 });
    expect(loadConfig({ REPORT_RETENTION_DAYS: '30', REPORT_MINUTE_RETENTION_DAYS: '61', REPORT_ROLLUP_INTERVAL_SECONDS: '15' }, cwd).history).toEqual({
      rawRetentionDays: 30,
      minuteRetentionDays: 61,
      rollupIntervalSeconds: 15,
    });
    expect(problemsOf({ REPORT_RETENTION_DAYS: '0', REPORT_ROLLUP_INTERVAL_SECONDS: 'often' }).sort()).toEqual([
      'REPORT_RETENTION_DAYS must be at least 1',
      'REPORT_ROLLUP_INTERVAL_SECONDS must be a number of seconds',
    ]);
    expect(problemsOf({ REPORT_RETENTION_DAYS: '365' })).toEqual(['REPORT_MINUTE_RETENTION_DAYS must be at least REPORT_RETENTION_DAYS + 31 (396)']);
  });

  it('reads the presence bounds: a 10 s heartbeat and a 30 s lease by default; a lease shorter than two heartbeats is refused', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd).presence).toEqual({ heartbeatSeconds: 10, leaseSeconds: 30 });
    expect(loadConfig({ HUB_HEARTBEAT_SECONDS: '1', HUB_LEASE_SECONDS: '3' }, cwd).presence).toEqual({ heartbeatSeconds: 1, leaseSeconds: 3 });
    expect(problemsOf({ HUB_HEARTBEAT_SECONDS: '10', HUB_LEASE_SECONDS: '15' })).toEqual([
      'HUB_LEASE_SECONDS must be at least twice HUB_HEARTBEAT_SECONDS (20)',
    ]);
    expect(problemsOf({ HUB_HEARTBEAT_SECONDS: '0', HUB_LEASE_SECONDS: 'long' }).sort()).toEqual([
      'HUB_HEARTBEAT_SECONDS must be at least 1',
      'HUB_LEASE_SECONDS must be a number of seconds',
    ]);
  });

  it('reads TLS_CERT_FILE and TLS_KEY_FILE together, refusing one alone, an unreadable file and a file that is not PEM', () => {
    const dir = freshDir();
    const certificate = path.join(dir, 'server.crt');
    const key = path.join(dir, 'server.key');
    writeFileSync(certificate, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    writeFileSync(key, '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n');
    expect(loadConfig({}, dir).tls).toBeNull();
    expect(loadConfig({ TLS_CERT_FILE: 'server.crt', TLS_KEY_FILE: key }, dir).tls).toEqual({
      certificatePem: readFileSync(certificate, 'utf8'),
      privateKeyPem: readFileSync(key, 'utf8'),
    });
    expect(problemsOf({ TLS_CERT_FILE: certificate })).toEqual([
      'TLS_CERT_FILE and TLS_KEY_FILE go together: set both (HTTPS on the server) or neither (plain HTTP behind a proxy)',
    ]);
    expect(problemsOf({ TLS_CERT_FILE: key, TLS_KEY_FILE: path.join(dir, 'missing.key') })).toEqual([
      `TLS_CERT_FILE (${key}) is not PEM`,
      `TLS_KEY_FILE (${path.join(dir, 'missing.key')}) cannot be read: ENOENT: no such file or directory, open '${path.join(dir, 'missing.key')}'`,
    ]);
  });

  it('keeps files in the data folder by default, in the database with PostgreSQL, and in S3 when a bucket is given', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd).files).toEqual({ storage: 'folder', folder: path.join(cwd, 'data', 'files') });
    expect(loadConfig({ DATABASE_URL: 'postgresql://postgres@localhost/gridport' }, cwd).files).toEqual({ storage: 'database' });
    expect(loadConfig({ FILE_STORAGE: 'folder', FILE_FOLDER: 'uploads' }, cwd).files).toEqual({ storage: 'folder', folder: path.join(cwd, 'uploads') });
    const s3 = { S3_ENDPOINT: 'http://127.0.0.1:9000/', S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig(s3, cwd).files).toEqual({
      storage: 's3',
      s3: { endpoint: 'http://127.0.0.1:9000', bucket: 'files', accessKeyId: 'key', secretAccessKey: 'secret', region: 'us-east-1' },
    });
    expect(problemsOf({ FILE_STORAGE: 's3', S3_BUCKET: 'files' })).toEqual(['files in S3 need S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY']);
    expect(problemsOf({ FILE_STORAGE: 'disk' })).toEqual(['FILE_STORAGE must be database, folder or s3']);
  });

  it('reads Grafana OnCall and Twilio, asking for the three Grafana settings together', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd)).toMatchObject({ grafanaOnCall: { url: null, token: null, scheduleId: null }, twilio: { authToken: null } });
    const grafana = { GRAFANA_ONCALL_URL: 'https://oncall.example.com/', GRAFANA_ONCALL_TOKEN: 'token', GRAFANA_ONCALL_SCHEDULE: 'SBM7DV7BKFUYU' };
    expect(loadConfig({ ...grafana, TWILIO_AUTH_TOKEN: 'twilio' }, cwd)).toMatchObject({
      grafanaOnCall: { url: 'https://oncall.example.com', token: 'token', scheduleId: 'SBM7DV7BKFUYU' },
      twilio: { authToken: 'twilio' },
    });
    expect(problemsOf({ GRAFANA_ONCALL_URL: 'https://oncall.example.com' })).toEqual([
      'Grafana OnCall needs GRAFANA_ONCALL_URL, GRAFANA_ONCALL_TOKEN and GRAFANA_ONCALL_SCHEDULE together; missing: GRAFANA_ONCALL_TOKEN, GRAFANA_ONCALL_SCHEDULE',
    ]);
  });

  it('reads METRICS_TOKEN for /metrics, refusing one shorter than 32 characters', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd)).toMatchObject({ metrics: { token: null } });
    const token = 'a-metrics-token-of-32-characters';
    expect(loadConfig({ METRICS_TOKEN: token }, cwd)).toMatchObject({ metrics: { token } });
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN must be at least 32 characters long']);
  });

  it('puts gridport: before every Redis channel and key unless REDIS_PREFIX says otherwise, refusing spaces, wildcards and long ones', () => {
    const cwd = freshDir();
    expect(loadConfig({}, cwd).redisPrefix).toBe('gridport:');
    expect(loadConfig({ REDIS_PREFIX: 'site-b.gridport:' }, cwd).redisPrefix).toBe('site-b.gridport:');
    const refused = 'REDIS_PREFIX must be 1 to 64 letters, digits or _ . : -';
    for (const prefix of ['two words', 'gridport*', 'a'.repeat(65), '{tag}', 'ümlaut']) {
      expect(problemsOf({ REDIS_PREFIX: prefix })).toEqual([refused]);
    }
  });
});
